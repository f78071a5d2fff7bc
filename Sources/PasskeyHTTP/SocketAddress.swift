#if canImport(Glibc)
    import Glibc
#endif

/// A numeric IPv4 or IPv6 listen address, and the text form of peer addresses.
enum SocketAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    /// Parses a numeric host (`localhost` means `127.0.0.1`); `nil` for anything else.
    init?(host: String, port: UInt16) {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, numeric, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, numeric, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self = .v6(v6)
            return
        }
        return nil
    }

    /// True for an IPv6 address.
    var isIPv6: Bool {
        if case .v6 = self { true } else { false }
    }

    /// True for `::`, which the server binds dual-stack.
    var isIPv6Unspecified: Bool {
        guard case .v6(var address) = self else { return false }
        return withUnsafeBytes(of: &address.sin6_addr) { bytes in bytes.allSatisfy { $0 == 0 } }
    }

    /// Calls `body` with the address as a `sockaddr` pointer.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch self {
        case .v4(var address):
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var address):
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }

    /// Binds a throwaway socket without `SO_REUSEPORT` to this address and returns the `errno` of
    /// a failure (0 when the bind worked; the socket is closed again). The daemons listen with
    /// `SO_REUSEPORT`, which would let a second server of the same user silently share a port
    /// with the first: this probe, made before they bind, fails with `EADDRINUSE` on a port that
    /// something already listens on. `SO_REUSEADDR` keeps connections of a previous run in
    /// TIME_WAIT from failing it.
    func probeBind() -> Int32 {
        let family = isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if isIPv6Unspecified {
            var off: Int32 = 0
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let result = withSockaddr { bind(fd, $0, length) }
        return result == 0 ? 0 : errno
    }

    /// The IP address of an `AF_INET` or `AF_INET6` socket address as text (`inet_ntop`), with an
    /// IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) given as `a.b.c.d`; empty for other families.
    static func text(of address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let count = socklen_t(buffer.count)
        let converted: UnsafePointer<CChar>?
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            converted = inet_ntop(AF_INET, &ip, &buffer, count)
        case AF_INET6:
            var ip = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            converted = inet_ntop(AF_INET6, &ip, &buffer, count)
        default:
            return ""
        }
        guard converted != nil else { return "" }
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let mappedPrefix = "::ffff:"
        if text.lowercased().hasPrefix(mappedPrefix), text.contains(".") {
            return String(text.dropFirst(mappedPrefix.count))
        }
        return text
    }
}
