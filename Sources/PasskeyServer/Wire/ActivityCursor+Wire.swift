internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain

extension ActivityCursor {
    /// The opaque `before` / `next` value: base64url without padding of 8 bytes (big-endian
    /// Int64 microseconds since 1970 of the event's `occurred_at`) followed by the 16 bytes of
    /// its ID: 24 bytes, 32 characters.
    var wireValue: String {
        let micros = UInt64(bitPattern: microsecondsSince1970)
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: micros >> (56 - 8 * UInt64($0))) }
        withUnsafeBytes(of: eventID.uuid.uuid) { bytes.append(contentsOf: $0) }
        return Base64URL.encode(bytes)
    }

    /// Strict: exactly 32 base64url characters (no padding, no standard alphabet) that decode to
    /// 24 bytes; nil for anything else.
    init?(wireValue text: String) {
        guard text.utf8.count == 32, let bytes = Base64URL.decode(text), bytes.count == 24 else { return nil }
        let micros = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let u = Array(bytes[8..<24])
        let uuid = UUID(
            uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15])
        )
        self.init(microsecondsSince1970: Int64(bitPattern: micros), eventID: AccountEventID(uuid))
    }
}
