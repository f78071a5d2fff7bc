internal import Foundation
internal import PasskeyWire
internal import Synchronization

/// One logfmt line per event on standard error (or another sink). Values are quoted when
/// needed; callers never pass secrets (passwords, tokens, challenges, keys), only codes, IDs,
/// reasons and causes. A logger may carry fields of its own (`with`): a request's logger carries
/// its ID, route and client on every line it writes.
struct Logger: Sendable {
    let level: LogLevel
    /// Where finished lines go; standard error unless a test captures them.
    var sink: @Sendable (String) -> Void = Logger.standardError
    /// Fields written after the caller's on every line.
    private(set) var metadata: [(key: LogKey, value: String)] = []

    init(level: LogLevel, sink: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.level = level
        self.sink = sink
    }

    @Sendable static func standardError(_ line: String) {
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// This logger with `fields` bound to every line it writes (after the line's own).
    func with(_ fields: KeyValuePairs<LogKey, String>) -> Logger {
        var bound = self
        bound.metadata.append(contentsOf: fields.map { (key: $0.key, value: $0.value) })
        return bound
    }

    func log(_ level: LogLevel, _ fields: KeyValuePairs<LogKey, String>) {
        log(level, fields.map { (key: $0.key, value: $0.value) })
    }

    func log(_ level: LogLevel, _ fields: [(key: LogKey, value: String)]) {
        guard level >= self.level else { return }
        var line = "time=\(WireJSON.timestamp(Date())) level=\(level.rawValue)"
        for (key, value) in fields {
            line += " \(key.name)=\(Self.quoted(value))"
        }
        for (key, value) in metadata where !fields.contains(where: { $0.key == key }) {
            line += " \(key.name)=\(Self.quoted(value))"
        }
        line += "\n"
        sink(line)
    }

    func info(_ fields: KeyValuePairs<LogKey, String>) { log(.info, fields) }
    func warning(_ fields: KeyValuePairs<LogKey, String>) { log(.warning, fields) }
    func error(_ fields: KeyValuePairs<LogKey, String>) { log(.error, fields) }

    /// A ceremony step outcome in the talk's format:
    /// `[PasskeyRegistration] step=registration.verifyCredential event=failed reason=userPresentFlagNotSet`,
    /// then the logger's own fields (a request's ID).
    func ceremony(_ ceremony: String, step: String, event: String, reason: String? = nil, level: LogLevel = .info) {
        guard level >= self.level else { return }
        var line =
            "time=\(WireJSON.timestamp(Date())) level=\(level.rawValue) [\(ceremony)] step=\(step) event=\(event)"
        if let reason { line += " reason=\(Self.quoted(reason))" }
        for (key, value) in metadata where key == .requestID { line += " \(key.name)=\(Self.quoted(value))" }
        line += "\n"
        sink(line)
    }

    static func quoted(_ value: String) -> String {
        // Most values are short ASCII tokens: decided on their bytes, without Character breaking
        // (every field of every line passes here).
        let plainASCII = value.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "\"")
                && byte != UInt8(ascii: "\\")
        }
        let needsQuotes =
            value.isEmpty
            || (!plainASCII
                && value.contains { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "\\" || $0.isNewline })
        guard needsQuotes else { return value }
        var escaped = "\""
        for character in value {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }
}
