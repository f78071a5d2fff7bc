/// The client address the contract means: the TCP peer, or — when the peer is a trusted
/// proxy — the right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
struct ClientAddressResolver: Sendable {
    let trustedProxies: Set<String>

    func resolve(peer: String, forwardedFor: String?) -> String {
        guard trustedProxies.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() where !hop.isEmpty && !trustedProxies.contains(hop) {
            // Bounded: an address is short; anything longer is not one.
            return String(hop.prefix(64))
        }
        return peer
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

extension Set where Element == Character {
    fileprivate static let whitespaces: Set<Character> = [" ", "\t"]
}
