import Synchronization

/// Strings a `@Sendable` callback was called with, for assertions.
final class Seen: Sendable {
    private let values = Mutex<[String]>([])

    func add(_ value: String) { values.withLock { $0.append(value) } }

    var all: [String] { values.withLock { $0 } }
}
