internal import Foundation
internal import PasskeyDomain

/// The client data (WebAuthn L3 §5.8.1), parsed from the exact `clientDataJSON` bytes,
/// which are kept for hashing. Unknown members (e.g. `tokenBinding`,
/// `other_keys_can_be_added_here`) are tolerated and ignored.
package struct CollectedClientData: Sendable {
    package let type: String
    /// The challenge as sent (base64url text); see `challengeBytes`.
    package let challenge: String
    package let origin: String
    package let crossOrigin: Bool?
    package let topOrigin: String?
    /// The bytes as received.
    package let rawBytes: [UInt8]

    /// Longest clientDataJSON accepted (far above any real client).
    package static let maximumLength = 16 * 1024

    /// WebAuthn L3 §7.1 steps 5–6 / §7.2 steps 9–10: UTF-8 decode, then parse JSON.
    /// Returns nil when the bytes are not a JSON object with string `type`, `challenge`, `origin`
    /// (and, when present, boolean `crossOrigin` and string `topOrigin`).
    package init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maximumLength, String(validating: bytes, as: UTF8.self) != nil else { return nil }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(bytes)) else { return nil }
        type = wire.type
        challenge = wire.challenge
        origin = wire.origin
        crossOrigin = wire.crossOrigin
        topOrigin = wire.topOrigin
        rawBytes = bytes
    }

    /// The challenge decoded from base64url, or nil when it is not valid base64url.
    package var challengeBytes: [UInt8]? { Base64URL.decode(challenge) }

    private struct Wire: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }
}
