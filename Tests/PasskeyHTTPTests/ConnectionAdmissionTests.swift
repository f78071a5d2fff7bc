import PasskeyHTTP
import Testing

/// The per-address connection limit's key and count. This machine cannot open connections from
/// several addresses of one IPv6 /64 (only `::1` is local, and adding addresses would change the
/// host's network), so the /64 sharing is tested here on the admission itself, and on real
/// sockets from `::1` and a dual-stack socket in `HTTPServerConnectionLimitTests`.
@Suite struct ConnectionAdmissionTests {
    @Test func ipv6AddressesCountByTheirSlash64AndIPv4MappedAsIPv4() throws {
        let key = try #require(PeerKey("2001:db8:1:2::1"))
        #expect(PeerKey("2001:db8:1:2:ffff:ffff:ffff:ffff") == key)
        #expect(PeerKey("2001:0DB8:0001:0002:aaaa::9") == key)
        #expect(PeerKey("2001:db8:1:3::1") != key)
        #expect(PeerKey("2001:db8:1:2::1") != PeerKey("2001:db8:0:2::1"))
        #expect(PeerKey("::ffff:192.0.2.1") == PeerKey("192.0.2.1"))
        #expect(PeerKey("::ffff:192.0.2.1") == .ipv4(192, 0, 2, 1))
        #expect(PeerKey("192.0.2.1") != PeerKey("192.0.2.2"))
        // IPv4-compatible (`::a.b.c.d`) is an IPv6 address in `::/64`, not the IPv4 address.
        #expect(PeerKey("::192.0.2.1") == PeerKey("::1"))
        #expect(PeerKey("::192.0.2.1") != PeerKey("192.0.2.1"))
        for notAnAddress in ["", "localhost", "fe80::1%lo", "[::1]", "010.0.0.1", "1.2.3.4:80", "host"] {
            #expect(PeerKey(notAnAddress) == nil, "\(notAnAddress)")
        }
    }

    /// The finding: libmicrohttpd counted per /128, so one IPv6 host filled every slot by
    /// connecting from ever new addresses of its /64.
    @Test func oneSlash64SharesOneBudget() {
        let admission = ConnectionAdmission(limit: 3, isUnlimited: { _ in false })
        #expect(admission.opened(1, peer: "2001:db8:7:7::1"))
        #expect(admission.opened(2, peer: "2001:db8:7:7::2"))
        #expect(admission.opened(3, peer: "2001:db8:7:7:ffff::3"))
        #expect(!admission.opened(4, peer: "2001:db8:7:7::4"))
        #expect(admission.isRefused(4))
        #expect(!admission.isRefused(3))
        // Another /64, and an IPv4 client, have budgets of their own.
        #expect(admission.opened(5, peer: "2001:db8:7:8::1"))
        #expect(admission.opened(6, peer: "192.0.2.1"))
        #expect(admission.openCount(for: PeerKey("2001:db8:7:7::99")!) == 3)
        // A refused connection closing frees nothing; a counted one frees its slot.
        admission.closed(4)
        #expect(!admission.opened(7, peer: "2001:db8:7:7::7"))
        admission.closed(1)
        #expect(admission.openCount(for: PeerKey("2001:db8:7:7::99")!) == 2)
        #expect(admission.opened(8, peer: "2001:db8:7:7::8"))
        #expect(!admission.isRefused(8))
    }

    @Test func anIPv4ClientCountsTheSameOnADualStackSocket() {
        let admission = ConnectionAdmission(limit: 2, isUnlimited: { _ in false })
        #expect(admission.opened(1, peer: "198.51.100.7"))
        #expect(admission.opened(2, peer: "::ffff:198.51.100.7"))
        #expect(!admission.opened(3, peer: "::ffff:198.51.100.7"))
        #expect(!admission.opened(4, peer: "198.51.100.7"))
        #expect(admission.openCount(for: .ipv4(198, 51, 100, 7)) == 2)
    }

    /// Behind proxies: the proxies are not counted (every client comes through them), every
    /// other peer is, also one in the same /64 as a trusted proxy; the unlimited check sees
    /// IPv4-mapped peers as IPv4 text.
    @Test func unlimitedPeersAreNotCountedAndTheirNeighboursAre() {
        let seen = Seen()
        let admission = ConnectionAdmission(
            limit: 2,
            isUnlimited: { peer in
                seen.add(peer)
                return peer == "2001:db8::10" || peer == "10.0.0.1"
            })
        for connection in UInt(1)...100 {
            #expect(
                admission.opened(connection, peer: connection.isMultiple(of: 2) ? "2001:db8::10" : "::ffff:10.0.0.1"))
        }
        #expect(admission.openCount(for: PeerKey("2001:db8::10")!) == 0)
        #expect(admission.opened(101, peer: "2001:db8::11"))
        #expect(admission.opened(102, peer: "2001:db8::12"))
        #expect(!admission.opened(103, peer: "2001:db8::13"))
        #expect(seen.all.contains("10.0.0.1"))
        #expect(!seen.all.contains("::ffff:10.0.0.1"))
        // Unlimited connections closing change no count.
        for connection in UInt(1)...100 { admission.closed(connection) }
        #expect(!admission.opened(104, peer: "2001:db8::14"))
    }

    @Test func limitZeroCountsNothing() {
        let admission = ConnectionAdmission(limit: 0, isUnlimited: { _ in false })
        for connection in UInt(1)...200 { #expect(admission.opened(connection, peer: "192.0.2.1")) }
        #expect(!admission.isRefused(200))
        #expect(admission.openCount(for: .ipv4(192, 0, 2, 1)) == 0)
    }
}
