/// The client address the contract means: the TCP peer, or — when the peer is a trusted proxy —
/// the right-most `X-Forwarded-For` entry that is not itself a trusted proxy. Every
/// `X-Forwarded-For` line counts, joined in order, so a line the client forged comes first and
/// is never believed while a trusted proxy appends the real peer after it.
///
/// An entry may carry a port (`ForwardedForEntry`), which is dropped. An entry that is not an
/// address makes the client the trusted proxy that wrote it (the peer, or the trusted entry to
/// its right): a proxy that cannot name its client vouches for nobody else, so no text a client
/// controls ever becomes a rate-limit key of its own. Empty entries (`a,,b`, a trailing comma)
/// are skipped, as HTTP's list syntax says.
struct ClientAddressResolver: Sendable {
    let trustedProxies: [IPAddressRange]

    /// Who the client is, and the entry that was not an address when that ended the search.
    struct Resolution: Equatable, Sendable {
        /// A numeric address in canonical text (the peer's as the HTTP layer gives it).
        let address: String
        var unusableEntry: UnusableEntry? = nil
    }

    /// An `X-Forwarded-For` entry that is not an address, as it may be logged.
    struct UnusableEntry: Equatable, Sendable {
        /// At most 32 bytes of it (`ForwardedForEntry.sanitised`).
        let text: String
        /// Its length in bytes.
        let bytes: Int
    }

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
    func resolve(peer: String, forwardedFor: [String]) -> Resolution {
        guard !forwardedFor.isEmpty, isTrusted(peer) else { return Resolution(address: peer) }
        let hops = forwardedFor.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false)
        // Who wrote the entry being looked at: the peer for the right-most one, then each
        // trusted proxy for the entry to its left.
        var writer = peer
        // At most 64 entries are looked at (from the right): a longer list is not a real proxy
        // chain.
        for hop in hops.reversed().prefix(64) {
            let entry = hop.trimmingCharacters(in: [" ", "\t"])
            if entry.isEmpty { continue }
            guard let address = ForwardedForEntry.address(entry) else {
                let unusable = UnusableEntry(text: ForwardedForEntry.sanitised(entry), bytes: entry.utf8.count)
                return Resolution(address: writer, unusableEntry: unusable)
            }
            guard isTrusted(address) else { return Resolution(address: address) }
            writer = address
        }
        return Resolution(address: writer)
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
