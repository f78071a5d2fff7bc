/// The client address the contract means: the TCP peer, or — when the peer is a trusted proxy —
/// the right-most `X-Forwarded-For` entry that is not itself a trusted proxy. Every
/// `X-Forwarded-For` line counts, joined in order, so a line the client forged comes first and
/// is never believed while a trusted proxy appends the real peer after it.
struct ClientAddressResolver: Sendable {
    let trustedProxies: [IPAddressRange]

    /// Every entry of `TRUSTED_PROXIES`, or the first that is not an address or CIDR range.
    static func parse(_ entries: [String]) -> Result<[IPAddressRange], InvalidEntry> {
        var ranges: [IPAddressRange] = []
        for entry in entries {
            guard let range = IPAddressRange(entry) else { return .failure(InvalidEntry(entry: entry)) }
            ranges.append(range)
        }
        return .success(ranges)
    }

    struct InvalidEntry: Error {
        let entry: String
    }

    func isTrusted(_ address: String) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// `forwardedFor` holds the values of every `X-Forwarded-For` line, in the order received.
    func resolve(peer: String, forwardedFor: [String]) -> String {
        guard !forwardedFor.isEmpty, isTrusted(peer) else { return peer }
        let hops = forwardedFor.joined(separator: ",").split(separator: ",")
        // At most 64 hops are looked at (from the right): a longer list is not a real proxy chain.
        for hop in hops.reversed().prefix(64) {
            let address = hop.trimmingCharacters(in: [" ", "\t"])
            if address.isEmpty { continue }
            if isTrusted(String(address)) { continue }
            // A token that is not an address is what a trusted proxy vouched for as the client;
            // it is bounded, and used only as a rate-limit key and in logs.
            return String(address.prefix(64))
        }
        return peer
    }

    /// What per-address limits count: IPv6 addresses by their /64 (one customer's network),
    /// IPv4 addresses (also IPv4-mapped IPv6) as they are.
    static func rateLimitKey(for address: String) -> String {
        guard address.contains(":"), let bytes = IPAddressRange.bytes(of: address) else { return address }
        if bytes[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff][...] {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}
