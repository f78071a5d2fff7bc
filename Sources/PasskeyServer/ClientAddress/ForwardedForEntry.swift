/// One entry of an `X-Forwarded-For` list, as proxies write them: `198.51.100.7`,
/// `198.51.100.7:4711`, `2001:db8::7`, `[2001:db8::7]` or `[2001:db8::7]:4711` (Azure
/// Application Gateway adds the port). The port is dropped; the address is given in the one
/// canonical text form the server uses for peers (`inet_ntop`, IPv4-mapped as IPv4), so
/// `[::1]`, `::1` and `0:0::1` are one client.
///
/// Anything else is not an address: a host name, `unknown`, a zone ID (`fe80::1%eth0`), an IPv4
/// octet with a leading zero (`010.0.0.1`, octal to some parsers), whitespace or a control
/// character inside, a port that is not 1–5 digits up to 65535, or more than 64 bytes.
enum ForwardedForEntry {
    /// The canonical address of `entry` (already trimmed of surrounding blanks), or nil.
    static func address(_ entry: Substring) -> String? {
        let utf8 = entry.utf8
        guard !utf8.isEmpty, utf8.count <= 64, utf8.allSatisfy(isAddressByte) else { return nil }
        let host: Substring
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { return nil }
            host = entry[entry.index(after: entry.startIndex)..<close]
            let rest = entry[entry.index(after: close)...]
            guard host.contains(":"), rest.isEmpty || isPortSuffix(rest) else { return nil }
        } else if entry.count(where: { $0 == ":" }) == 1, let colon = entry.firstIndex(of: ":") {
            // `a.b.c.d:port`; an unbracketed IPv6 address has at least two colons.
            host = entry[..<colon]
            guard isPortSuffix(entry[colon...]) else { return nil }
        } else {
            host = entry
        }
        guard !host.contains("["), !host.contains("]"), let bytes = IPAddressRange.bytes(of: String(host)) else {
            return nil
        }
        return IPAddressRange.text(of: bytes)
    }

    /// At most 32 bytes of `entry` for a log line: printable ASCII other than `"`, `\` and `=`
    /// as it is, every other byte as `?`, so no entry can break, extend or forge a logfmt line
    /// (and none needs quoting).
    static func sanitised(_ entry: Substring) -> String {
        String(decoding: entry.utf8.prefix(32).map { isLoggable($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// `:` followed by 1–5 ASCII digits whose value is at most 65535.
    private static func isPortSuffix(_ text: Substring) -> Bool {
        let digits = text.utf8.dropFirst()
        guard text.first == ":", (1...5).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) })
        else { return false }
        return Int(String(decoding: digits, as: UTF8.self)).map { $0 <= 65_535 } ?? false
    }

    /// Hex digits, `.`, `:`, `[` and `]`: every byte an address with a port can hold.
    private static func isAddressByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "["),
            UInt8(ascii: "]"):
            true
        default:
            false
        }
    }

    private static func isLoggable(_ byte: UInt8) -> Bool {
        (0x21...0x7e).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
            && byte != UInt8(ascii: "=")
    }
}
