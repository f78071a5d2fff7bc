import Foundation
import PasskeyHTTP
import Testing

/// The connection limits: per peer address, and in total. Held connections send nothing, and the
/// head deadline is set long enough not to interfere.
@Suite struct HTTPServerConnectionLimitTests {
    static let request = Array("GET /served HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)

    /// Opens `count` idle connections from `source` and waits until the server has accepted them.
    static func hold(
        _ count: Int, from source: String, on server: TestServer, expectingOpen total: Int
    ) async throws -> [RawConnection] {
        var held: [RawConnection] = []
        for _ in 0..<count {
            held.append(try await RawConnection.open(RawHTTPClient(port: server.port, source: source)))
        }
        try await waitFor { server.server.openConnectionCount == total }
        #expect(server.server.openConnectionCount == total)
        return held
    }

    /// Polls `condition` for up to 10 s.
    static func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func connectionOverThePerAddressLimitIsClosedWhileAnotherAddressIsServed() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.maximumConnectionsPerAddress = 3
            $0.requestHeadTimeoutSeconds = 120
        }
        try await TestServer.with(configure: configure) { server in
            let held = try await Self.hold(3, from: "127.0.0.1", on: server, expectingOpen: 3)
            // The fourth from 127.0.0.1 is accepted by the kernel, then closed without an answer.
            let (refused, closed) = try await RawHTTPClient(port: server.port, source: "127.0.0.1")
                .exchangeUntilClosed(Self.request, timeout: .seconds(15))
            #expect(refused.isEmpty)
            #expect(closed)
            // Another address is served meanwhile.
            let (served, _) = try await RawHTTPClient(port: server.port, source: "127.0.0.2")
                .exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
            // The held ones are still good.
            try await held[0].send(Self.request)
            let answer = await held[0].readUntilClosed(timeout: .seconds(20))
            #expect(RawHTTPClient.responses(in: answer.bytes).map(\.status) == [200])
            #expect(server.log.all.map(\.remoteAddress).sorted() == ["127.0.0.1", "127.0.0.2"])
        }
    }

    @Test func perAddressLimitZeroMeansNoLimit() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.maximumConnectionsPerAddress = 0
            $0.requestHeadTimeoutSeconds = 120
        }
        try await TestServer.with(configure: configure) { server in
            let held = try await Self.hold(70, from: "127.0.0.1", on: server, expectingOpen: 70)
            let (served, _) = try await RawHTTPClient(port: server.port, source: "127.0.0.1")
                .exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
            withExtendedLifetime(held) {}
        }
    }

    /// A client over the total limit is not left in the backlog: it gets 503 problem+json with
    /// `Retry-After` and `Connection: close` at once, its request never reaches the handler, and
    /// once one of the others closed a new client is served again.
    @Test func connectionOverTheTotalLimitGetsA503ProblemAtOnce() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.maximumConnections = 4
            $0.maximumConnectionsPerAddress = 0
            $0.requestHeadTimeoutSeconds = 120
        }
        try await TestServer.with(configure: configure) { server in
            var held = try await Self.hold(2, from: "127.0.0.3", on: server, expectingOpen: 2)
            held += try await Self.hold(2, from: "127.0.0.4", on: server, expectingOpen: 4)
            // A fifth client (from yet another address) is answered 503 and closed…
            let refused = try await RawConnection.open(RawHTTPClient(port: server.port, source: "127.0.0.5"))
            try await refused.send(Self.request)
            let answer = await refused.readUntilClosed(timeout: .seconds(20))
            #expect(answer.closed)
            let responses = RawHTTPClient.responses(in: answer.bytes)
            #expect(responses.map(\.status) == [503])
            let response = try #require(responses.first)
            #expect(response.header("content-type") == "application/problem+json")
            #expect(response.header("retry-after") == "1")
            #expect(response.header("connection")?.lowercased() == "close")
            #expect(String(decoding: response.body, as: UTF8.self).contains(#""code":"service-unavailable""#))
            #expect(server.log.all.isEmpty, "the refused request never reached the handler")
            // …and once one of the four closes, a new client is served.
            held.removeFirst().close()
            try await Self.waitFor { server.server.openConnectionCount <= 3 }
            let (served, _) = try await RawHTTPClient(port: server.port, source: "127.0.0.6")
                .exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
            #expect(server.log.all.map(\.remoteAddress) == ["127.0.0.6"])
        }
    }

    /// Security round 4, finding 7: a connection answered 503 over the total limit used to stay
    /// open and counted while its client kept sending (libmicrohttpd's idle timeout restarts with
    /// every byte), so one address could hold every new client at 503. It is now closed shortly
    /// after its answer, whatever the client sends, and stops being counted.
    @Test func aConnectionAnswered503IsClosedSoonWhileItsClientKeepsSending() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.maximumConnections = 2
            $0.maximumConnectionsPerAddress = 0
            $0.requestHeadTimeoutSeconds = 120
        }
        try await TestServer.with(configure: configure) { server in
            let held = try await Self.hold(2, from: "127.0.0.3", on: server, expectingOpen: 2)
            let refused = try await RawConnection.open(RawHTTPClient(port: server.port, source: "127.0.0.4"))
            try await Self.waitFor { server.server.openConnectionCount == 3 }
            let start = ContinuousClock.now
            var received: [UInt8] = []
            var closed = false
            // One byte every 100 ms, for up to 20 s: the server must end the connection itself.
            while !closed, ContinuousClock.now - start < .seconds(20) {
                try? await refused.send([UInt8(ascii: "x")])
                let answer = await refused.readUntilClosed(timeout: .milliseconds(100))
                received += answer.bytes
                closed = answer.closed
            }
            #expect(closed, "the answered connection was left open")
            #expect(RawHTTPClient.responses(in: received).map(\.status) == [503])
            try await Self.waitFor { server.server.openConnectionCount == 2 }
            #expect(server.server.openConnectionCount == 2, "the answered connection is still counted")
            refused.close()
            withExtendedLifetime(held) {}
        }
    }

    /// IPv4 clients of a dual-stack socket arrive as `::ffff:a.b.c.d` and count as that IPv4
    /// address; `::1` is limited like any IPv6 peer (by its /64, see `ConnectionAdmissionTests`).
    @Test func dualStackAndIPv6PeersAreLimited() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.maximumConnectionsPerAddress = 2
            $0.requestHeadTimeoutSeconds = 120
        }
        try await TestServer.with(host: "::", configure: configure) { server in
            var held = try await Self.hold(2, from: "127.0.0.1", on: server, expectingOpen: 2)
            for _ in 0..<2 {
                held.append(try await RawConnection.open(RawHTTPClient(host: "::1", port: server.port)))
            }
            try await Self.waitFor { server.server.openConnectionCount == 4 }
            for client in [
                RawHTTPClient(port: server.port, source: "127.0.0.1"), RawHTTPClient(host: "::1", port: server.port),
            ] {
                let (refused, closed) = try await client.exchangeUntilClosed(Self.request, timeout: .seconds(15))
                #expect(refused.isEmpty)
                #expect(closed)
            }
            let (served, _) = try await RawHTTPClient(port: server.port, source: "127.0.0.2")
                .exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
            #expect(server.log.all.map(\.remoteAddress) == ["127.0.0.2"])
            withExtendedLifetime(held) {}
        }
    }

    /// Behind a proxy: the proxy's own connections are not counted, every other peer still is.
    @Test func unlimitedPeersAreNotCountedWhileOthersAre() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.maximumConnectionsPerAddress = 3
            $0.isUnlimitedPeer = { $0 == "127.0.0.1" }
            $0.requestHeadTimeoutSeconds = 120
        }
        try await TestServer.with(configure: configure) { server in
            var held = try await Self.hold(10, from: "127.0.0.1", on: server, expectingOpen: 10)
            held += try await Self.hold(3, from: "127.0.0.2", on: server, expectingOpen: 13)
            let (refused, closed) = try await RawHTTPClient(port: server.port, source: "127.0.0.2")
                .exchangeUntilClosed(Self.request, timeout: .seconds(15))
            #expect(refused.isEmpty)
            #expect(closed)
            let (served, _) = try await RawHTTPClient(port: server.port, source: "127.0.0.1")
                .exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
            #expect(server.log.all.map(\.remoteAddress) == ["127.0.0.1"])
            withExtendedLifetime(held) {}
        }
    }
}
