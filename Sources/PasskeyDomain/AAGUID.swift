internal import Foundation

/// An authenticator's model identifier (16 bytes). All zeros means "not disclosed".
package struct AAGUID: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    package static let zero = AAGUID(uncheckedBytes: [UInt8](repeating: 0, count: 16))

    package init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    private init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }

    package init?(string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        let u = uuid.uuid
        bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    /// Lowercase hyphenated form, e.g. `fbfc3007-154e-4ecc-8c0b-6e020557d7bd`.
    package var description: String {
        let b = bytes
        let uuid = UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
        return uuid.uuidString.lowercased()
    }
}
