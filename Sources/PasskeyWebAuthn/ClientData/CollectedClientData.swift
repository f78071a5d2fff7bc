internal import Foundation
internal import PasskeyDomain
internal import PasskeyJSON

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
    ///
    /// The usual client data (ASCII, no escapes, no numbers or nested values) is read by
    /// `FlatJSONObject`; anything else by `JSONDecoder`, with the same result for every input
    /// both accept (checked by the fuzz target and the tests).
    package init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maximumLength else { return nil }
        if let object = FlatJSONObject(bytes) {
            guard let fields = Self.fields(of: object) else { return nil }
            (type, challenge, origin, crossOrigin, topOrigin) = fields
        } else {
            guard let wire = Self.decodedByFoundation(bytes) else { return nil }
            (type, challenge, origin, crossOrigin, topOrigin) = wire
        }
        rawBytes = bytes
    }

    /// The members as `JSONDecoder` would decode them from the same object: nil where it would
    /// fail (a required member missing or not a string, an optional one of the wrong type).
    private static func fields(
        of object: FlatJSONObject
    ) -> (type: String, challenge: String, origin: String, crossOrigin: Bool?, topOrigin: String?)? {
        guard case .string(let type) = object["type"], case .string(let challenge) = object["challenge"],
            case .string(let origin) = object["origin"]
        else { return nil }
        let crossOrigin: Bool?
        switch object["crossOrigin"] {
        case .bool(let value): crossOrigin = value
        case .null, nil: crossOrigin = nil
        case .string: return nil
        }
        let topOrigin: String?
        switch object["topOrigin"] {
        case .string(let value): topOrigin = value
        case .null, nil: topOrigin = nil
        case .bool: return nil
        }
        return (type, challenge, origin, crossOrigin, topOrigin)
    }

    /// The slow path alone (for the differential fuzz target and the tests).
    package static func decodedByFoundation(
        _ bytes: [UInt8]
    ) -> (type: String, challenge: String, origin: String, crossOrigin: Bool?, topOrigin: String?)? {
        guard bytes.count <= maximumLength, String(validating: bytes, as: UTF8.self) != nil,
            let wire = try? JSONDecoder().decode(Wire.self, from: Data(bytes))
        else { return nil }
        return (wire.type, wire.challenge, wire.origin, wire.crossOrigin, wire.topOrigin)
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
