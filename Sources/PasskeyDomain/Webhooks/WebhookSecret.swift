internal import Foundation

/// (v4) A webhook endpoint's signing secret, as Standard Webhooks writes it: `whsec_` + base64 of
/// 32 random bytes. The bytes are the HMAC key. Never logged: its description hides them.
package struct WebhookSecret: Hashable, Sendable, CustomStringConvertible {
    package static let prefix = "whsec_"
    package static let byteCount = 32

    package let bytes: [UInt8]

    /// Nil unless `bytes` holds 32 bytes.
    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// Reads `whsec_…`; nil for anything else.
    package init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), let data = Data(base64Encoded: String(text.dropFirst(Self.prefix.count)))
        else { return nil }
        self.init(bytes: Array(data))
    }

    /// `whsec_…`: shown once, to whoever registered the endpoint.
    package var text: String { Self.prefix + Data(bytes).base64EncodedString() }

    package var description: String { "WebhookSecret(<redacted>)" }
}
