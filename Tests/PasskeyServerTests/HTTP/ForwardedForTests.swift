import Foundation
import Testing

@testable import PasskeyServer

/// Finding 8 of security round 3: `X-Forwarded-For` entries with a port (as Azure Application
/// Gateway writes them) were used as they are, so each port was a client of its own with a fresh
/// rate-limit budget; and any token a proxy wrote was taken as the client.
@Suite struct ForwardedForTests {
    /// Over HTTP through a trusted proxy (the test client on 127.0.0.1), with the password
    /// failure limit per address at 2.
    @Test func aPortDoesNotMakeANewClientAndGarbageCountsAgainstTheProxy() async throws {
        let environment = [
            "TRUSTED_PROXIES": "127.0.0.1", "RATE_LIMIT_PASSWORD_PER_ADDRESS": "2",
            "RATE_LIMIT_PASSWORD_PER_EMAIL": "1000", "LOG_LEVEL": "warning",
        ]
        let log = LogCapture()
        try await withServer(environment: environment, logSink: log.sink) { server, _ in
            func statuses(_ entries: [String]) async throws -> [Int] {
                var statuses: [Int] = []
                for entry in entries {
                    let response = try await server.client.send(
                        "POST", "/v1/sessions", json: ["email": "nobody@example.com", "password": "wrong password"],
                        headers: ["X-Forwarded-For": entry])
                    statuses.append(response.status)
                }
                return statuses
            }
            let withPorts = try await statuses(["198.51.100.2:40001", "198.51.100.2:40002", "198.51.100.2:40003"])
            #expect(withPorts == [401, 401, 429])
            let withoutPort = try await statuses(["198.51.100.2"])
            #expect(withoutPort == [429])
            let ipv6 = try await statuses([
                "[2001:db8::2]:40001", "[2001:db8::2]:40002", "[2001:db8::2]", "2001:db8::2",
            ])
            #expect(ipv6 == [401, 401, 429, 429])
            // Not addresses: the client is the proxy that wrote them (here the peer, 127.0.0.1).
            let garbage = try await statuses(["unknown", "198.51.100.9:99999", "fe80::1%eth0"])
            #expect(garbage == [401, 401, 429])
            let another = try await statuses(["203.0.113.5"])
            #expect(another == [401])
            let warnings = log.all.filter { $0.contains("event=forwarded_for") }
            #expect(warnings.count == 3)
            #expect(warnings.first?.contains("level=warning") == true)
            #expect(
                warnings.first?.contains("outcome=not_an_address entry=unknown entry_bytes=7 client=127.0.0.1") == true)
            #expect(warnings.last?.contains("entry=fe80::1%eth0 entry_bytes=12") == true, "\(warnings)")
        }
    }
}
