import Testing

@testable import PasskeyServer

/// The parsing branches of `X-Forwarded-For` entries (`ForwardedForEntry`) and who the client
/// is when an entry is not an address (`ClientAddressResolver`).
@Suite struct ClientAddressTests {
    @Test func portsAndBracketsAreDroppedAndAddressesCanonical() {
        let cases: [(String, String)] = [
            ("198.51.100.7", "198.51.100.7"), ("198.51.100.7:4711", "198.51.100.7"), ("198.51.100.7:0", "198.51.100.7"),
            ("198.51.100.7:65535", "198.51.100.7"), ("198.51.100.7:04711", "198.51.100.7"),
            ("2001:db8::7", "2001:db8::7"), ("[2001:db8::7]", "2001:db8::7"), ("[2001:db8::7]:4711", "2001:db8::7"),
            ("2001:DB8:0:0::7", "2001:db8::7"), ("2001:0db8:0000:0000:0000:0000:0000:0007", "2001:db8::7"),
            ("[::1]", "::1"), ("::1", "::1"), ("[::1]:80", "::1"), ("0:0::1", "::1"),
            ("::ffff:198.51.100.7", "198.51.100.7"), ("[::ffff:198.51.100.7]:1", "198.51.100.7"),
            ("::ffff:c633:6407", "198.51.100.7"),
        ]
        for (entry, address) in cases {
            #expect(ForwardedForEntry.address(entry[...]) == address, "\(entry)")
        }
    }

    @Test func entriesThatAreNotAddresses() {
        let bad = [
            "", "unknown", "_hidden", "proxy.example.com", "198.51.100.7:", "198.51.100.7:65536", "198.51.100.7:123456",
            "198.51.100.7:-1", "198.51.100.7:+1", "198.51.100.7:0x50", "198.51.100.7:80:80", "010.0.0.1", "1.2.3",
            "1.2.3.4.5", "256.0.0.1", "[198.51.100.7]", "[198.51.100.7]:80", "[2001:db8::7", "2001:db8::7]",
            "[2001:db8::7]80", "[2001:db8::7]:", "[2001:db8::7]:99999", "[[2001:db8::7]]", "[2001:db8::7]:1]",
            "fe80::1%eth0", "[fe80::1%25eth0]:80", "1.2.3.4 :80", "1.2.3.4\u{0}", "1.2.3.4\u{0}5.6.7.8",
            "\u{FF11}.2.3.4", "2001:db8::7::1", ":::", "\"198.51.100.7\"", "for=198.51.100.7",
            String(repeating: "0", count: 60) + "::1",
        ]
        for entry in bad {
            #expect(ForwardedForEntry.address(entry[...]) == nil, "\(entry)")
        }
    }

    @Test func anEntryThatIsNotAnAddressMakesTheClientTheProxyThatWroteIt() throws {
        let resolver = ClientAddressResolver(trustedProxies: [
            try #require(IPAddressRange("10.0.0.0/8")), try #require(IPAddressRange("2001:db8:1::10")),
        ])
        // Written by the peer.
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: ["198.51.100.1, unknown"]).address == "10.0.0.1")
        // Written by the trusted proxy to its right, 10.0.0.2 (with a port); the forged left part is never read.
        let chain = resolver.resolve(peer: "10.0.0.1", forwardedFor: ["198.51.100.1, garbage", "10.0.0.2:5000"])
        #expect(chain == .init(address: "10.0.0.2", unusableEntry: .init(text: "garbage", bytes: 7)))
        // Only the proxy's /128 is trusted: its neighbour in the same /64 is a client like any other.
        #expect(
            resolver.resolve(peer: "10.0.0.1", forwardedFor: ["2001:db8:1::11", "[2001:db8:1::10]:1"]).address
                == "2001:db8:1::11")
        // Empty list elements are skipped, blanks around an entry trimmed.
        #expect(
            resolver.resolve(peer: "10.0.0.1", forwardedFor: [" 198.51.100.1:7\t, ,", ""]).address == "198.51.100.1")
        #expect(resolver.resolve(peer: "10.0.0.1", forwardedFor: [" , "]) == .init(address: "10.0.0.1"))
        // An untrusted peer's header is never read, whatever it holds.
        #expect(resolver.resolve(peer: "192.0.2.1", forwardedFor: ["unknown"]) == .init(address: "192.0.2.1"))
        // A trusted address written as IPv4-mapped is trusted too.
        #expect(
            resolver.resolve(peer: "10.0.0.1", forwardedFor: ["198.51.100.3, [::ffff:10.1.1.1]:9"]).address
                == "198.51.100.3")
    }

    @Test func manyEntriesAreLookedAtOnlyFromTheRight() throws {
        let resolver = ClientAddressResolver(trustedProxies: [try #require(IPAddressRange("10.0.0.0/8"))])
        let trusted = (0..<100).map { "10.0.\($0 / 250).\($0 % 250 + 1)" }
        // The client is left of 100 trusted hops: after 64 the search stops at the last proxy seen.
        let far = resolver.resolve(
            peer: "10.9.9.9", forwardedFor: [(["198.51.100.1"] + trusted).joined(separator: ",")])
        #expect(far.address == "10.0.0.37")
        let near = resolver.resolve(
            peer: "10.9.9.9",
            forwardedFor: [(Array(repeating: "x", count: 5_000) + ["198.51.100.1"]).joined(separator: ",")])
        #expect(near.address == "198.51.100.1")
    }

    /// Log injection: what is logged of an entry is at most 32 bytes of printable ASCII without
    /// quotes or backslashes, so the logfmt line cannot be broken or extended.
    @Test func theLoggedPartOfAnEntryIsBoundedAndSanitised() throws {
        let resolver = ClientAddressResolver(trustedProxies: [try #require(IPAddressRange("10.0.0.1"))])
        let hostile = "x\" level=error event=forged a=\"\\\u{1b}[31m" + String(repeating: "é", count: 100)
        let resolution = resolver.resolve(peer: "10.0.0.1", forwardedFor: [hostile])
        #expect(resolution.address == "10.0.0.1")
        let entry = try #require(resolution.unusableEntry)
        #expect(entry.text == "x??level?error?event?forged?a???")
        #expect(entry.text.utf8.count == 32)
        #expect(entry.bytes == hostile.utf8.count)
        #expect(Logger.quoted(entry.text) == entry.text)
    }
}
