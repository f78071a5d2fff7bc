internal import Foundation

/// The WebAuthn user handle: the 16 raw bytes of the account UUID.
package struct UserHandle: Hashable, Sendable {
    package let bytes: [UInt8]

    package init(accountID: AccountID) {
        let u = accountID.uuid.uuid
        bytes = [
            u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15,
        ]
    }

    /// Accepts exactly 16 bytes; anything else cannot be one of ours.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The account this handle names.
    package var accountID: AccountID {
        let b = bytes
        return AccountID(
            UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
                )))
    }
}
