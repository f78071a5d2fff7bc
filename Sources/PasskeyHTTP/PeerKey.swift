#if canImport(Glibc)
    import Glibc
#endif

/// What the per-address connection limit counts by: an IPv4 address, or the /64 prefix of an
/// IPv6 address. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is its IPv4 address, so a
/// client counts the same on an IPv4 and on a dual-stack socket.
package enum PeerKey: Hashable, Sendable {
    /// The four bytes of an IPv4 address, in network order.
    case ipv4(UInt8, UInt8, UInt8, UInt8)
    /// The first eight bytes (the /64 prefix) of an IPv6 address, as a big-endian number.
    case ipv6Prefix(UInt64)

    /// The key of an `AF_INET` or `AF_INET6` socket address; nil for other families.
    init?(address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self.init(bytes: withUnsafeBytes(of: &ip) { Array($0) })
        case AF_INET6:
            var ip = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self.init(bytes: withUnsafeBytes(of: &ip) { Array($0) })
        default:
            return nil
        }
    }

    /// The key of a numeric IPv4 or IPv6 address in text (for tests and callers with text).
    package init?(_ text: String) {
        guard let address = SocketAddress(host: text, port: 0), text != "localhost" else { return nil }
        let key = address.withSockaddr { PeerKey(address: $0) }
        guard let key else { return nil }
        self = key
    }

    /// The key of 4 (IPv4) or 16 (IPv6) address bytes in network order.
    init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            self = .ipv4(bytes[0], bytes[1], bytes[2], bytes[3])
        case 16 where bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff:
            self = .ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
        case 16:
            self = .ipv6Prefix(bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
        default:
            return nil
        }
    }
}
