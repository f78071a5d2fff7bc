package import Foundation

extension RandomGenerator {
    /// A version 4 (random) UUID from this generator: IDs come from the same CSPRNG as
    /// challenges and tokens, without opening the OS random device for each `UUID()`.
    package func uuid() -> UUID {
        var b = bytes(count: 16)
        b[6] = (b[6] & 0x0F) | 0x40  // version 4
        b[8] = (b[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
}
