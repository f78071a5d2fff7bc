internal import Foundation
internal import PasskeyWire
internal import Synchronization

/// One logfmt line per event on standard error (or another sink). Values are quoted when
/// needed; callers never pass secrets (passwords, tokens, challenges, keys), only codes, IDs,
/// reasons and causes.
struct Logger: Sendable {
    let level: LogLevel
    /// Where finished lines go; standard error unless a test captures them.
    var sink: @Sendable (String) -> Void = Logger.standardError

    @Sendable static func standardError(_ line: String) {
        FileHandle.standardError.write(Data(line.utf8))
    }

    func log(_ level: LogLevel, _ fields: KeyValuePairs<String, String>) {
        guard level >= self.level else { return }
        var line = "time=\(WireJSON.timestamp(Date())) level=\(level.rawValue)"
        for (key, value) in fields {
            line += " \(key)=\(Self.quoted(value))"
        }
        line += "\n"
        sink(line)
    }

    func info(_ fields: KeyValuePairs<String, String>) { log(.info, fields) }
    func warning(_ fields: KeyValuePairs<String, String>) { log(.warning, fields) }
    func error(_ fields: KeyValuePairs<String, String>) { log(.error, fields) }

    /// A ceremony step outcome in the talk's format:
    /// `[PasskeyRegistration] step=registration.verifyCredential event=failed reason=userPresentFlagNotSet`.
    func ceremony(
        _ ceremony: String, step: String, event: String, reason: String? = nil, requestID: String,
        level: LogLevel = .info
    ) {
        guard level >= self.level else { return }
        var line =
            "time=\(WireJSON.timestamp(Date())) level=\(level.rawValue) [\(ceremony)] step=\(step) event=\(event)"
        if let reason { line += " reason=\(Self.quoted(reason))" }
        line += " request_id=\(requestID)\n"
        sink(line)
    }

    static func quoted(_ value: String) -> String {
        let needsQuotes =
            value.isEmpty || value.contains { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "\\" || $0.isNewline }
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
