import Foundation

/// A value behind an `NSLock`: the stubs' `Mutex`, on the platforms the client supports (iOS 16,
/// macOS 13, where `Synchronization.Mutex` does not exist) and on Linux.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
