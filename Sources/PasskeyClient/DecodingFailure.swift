internal import Foundation

/// Turns a failed decode into the `cause` of `PasskeyClientError.unexpectedResponse`: what the
/// decoder refused and where, in one line (`DecodingError` itself is neither `Sendable` nor
/// `Hashable`, so the error keeps its account, not the value).
enum DecodingFailure {
    /// e.g. `missing key "accessToken" at the top level`, `expected String at publicKey.user.name:
    /// …`, `invalid value at the top level: The given data was not valid JSON. (…)`.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return String(describing: error) }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "null where \(type) was expected at \(path(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return "invalid value at \(path(context.codingPath)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return String(describing: decoding)
        }
    }

    /// `publicKey.excludeCredentials[0].id`; `the top level` for the root.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
