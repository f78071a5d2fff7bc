import Synchronization

/// Collects the server's log lines for assertions (the logger's sink).
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var sink: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }

    var all: [String] { lines.withLock { $0 } }
    var text: String { all.joined() }
}
