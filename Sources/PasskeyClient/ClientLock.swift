internal import Foundation

/// A value guarded by an `NSLock`: what `Synchronization.Mutex` does, on iOS 16 and macOS 13
/// (where `Mutex` does not exist) and on Linux alike.
final class ClientLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, no other caller in between.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
