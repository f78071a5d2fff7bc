#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address or CIDR range from `TRUSTED_PROXIES` (`10.0.0.1`, `10.0.0.0/8`,
/// `fd00::/8`). IPv4 addresses are kept as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), so one
/// comparison covers both families.
struct IPAddressRange: Hashable, Sendable {
    /// 16 bytes, IPv6 or IPv4-mapped.
    let network: [UInt8]
    /// Leading bits that must match (0…128).
    let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`; nil for anything else (host names included).
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddressRange.bytes(of: String(parts[0])) else { return nil }
        let isIPv4 = !parts[0].contains(":")
        var bits = 128
        if parts.count == 2 {
            guard let given = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...(isIPv4 ? 32 : 128)).contains(given)
            else { return nil }
            bits = isIPv4 ? given + 96 : given
        }
        self.prefixLength = bits
        self.network = IPAddressRange.masked(address, bits: bits)
    }

    /// True when `address` (textual, either family) lies in this range.
    func contains(_ address: String) -> Bool {
        guard let bytes = IPAddressRange.bytes(of: address) else { return false }
        return IPAddressRange.masked(bytes, bits: prefixLength) == network
    }

    /// The 16 bytes of a numeric IPv4 or IPv6 address (IPv4 as `::ffff:a.b.c.d`).
    static func bytes(of text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        if !text.contains(":") {
            var v4 = in_addr()
            guard inet_pton(AF_INET, text, &v4) == 1 else { return nil }
            return Array(repeating: 0, count: 10) + [0xff, 0xff] + withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        return withUnsafeBytes(of: &v6) { Array($0) }
    }

    /// The canonical text of 16 address bytes: IPv4-mapped as `a.b.c.d` (as the HTTP layer
    /// gives peers), IPv6 as `inet_ntop` writes it (lower case, longest zero run as `::`).
    static func text(of bytes: [UInt8]) -> String {
        precondition(bytes.count == 16)
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    static func masked(_ bytes: [UInt8], bits: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = min(8, max(0, bits - 8 * index))
            return keep == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xff << (8 - keep))
        }
    }
}
