internal import Foundation
internal import PasskeyDomain
internal import PasskeyWire

/// A value a `{parameter}` path segment can name. A segment that does not decode names no
/// resource, so `PathParameters.require` answers it with 404 `not-found`, like an unknown one.
protocol PathParameterDecodable: Sendable {
    init?(pathParameter: String)
}

extension CredentialID: PathParameterDecodable {
    /// base64url, padded or not, or standard base64 (the contract's lenient input rule).
    init?(pathParameter: String) {
        guard let bytes = Base64URL.decode(pathParameter, lenient: true) else { return nil }
        self.init(bytes: bytes)
    }
}

extension SessionID: PathParameterDecodable {
    init?(pathParameter: String) {
        guard let uuid = UUID(uuidString: pathParameter) else { return nil }
        self.init(uuid)
    }
}

extension AccountID: PathParameterDecodable {
    init?(pathParameter: String) {
        guard let uuid = UUID(uuidString: pathParameter) else { return nil }
        self.init(uuid)
    }
}

extension WebhookID: PathParameterDecodable {
    init?(pathParameter: String) { self.init(string: pathParameter) }
}
