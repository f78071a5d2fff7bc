import Foundation
import PasskeyEventLoop
import PasskeyHTTP
import Testing

/// The hard deadline for request heads: a client trickling its head is cut off however steadily
/// it sends, while other clients are served. Timings are generous on the served side and only
/// bound the cut-off from above (deadline + several seconds), so a loaded machine cannot fail them.
@Suite struct HTTPServerHeadDeadlineTests {
    static let request = Array("GET /served HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)

    /// Sends `head` one byte a second until the server closes the connection or `limit` passes;
    /// returns how long the connection lasted and whether the server cut it.
    static func trickle(_ head: [UInt8], on connection: RawConnection, limit: Duration) async -> (Duration, Bool) {
        let start = ContinuousClock.now
        for byte in head {
            if ContinuousClock.now - start > limit { return (ContinuousClock.now - start, false) }
            do {
                try await connection.send([byte])
            } catch {
                return (ContinuousClock.now - start, true)
            }
            let (_, closed) = await connection.readUntilClosed(timeout: .seconds(1))
            if closed { return (ContinuousClock.now - start, true) }
        }
        return (ContinuousClock.now - start, false)
    }

    @Test func slowHeadIsCutOffWhileANewClientIsServed() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.requestHeadTimeoutSeconds = 2 }
        try await TestServer.with(configure: configure) { server in
            let slow = try await RawConnection.open(server.client)
            let head = Array(
                "GET /slow HTTP/1.1\r\nHost: t\r\nX-Padding: \(String(repeating: "p", count: 40))\r\n\r\n".utf8)
            async let trickled = Self.trickle(head, on: slow, limit: .seconds(30))
            // Meanwhile a new client is served.
            try await Task.sleep(for: .milliseconds(500))
            let (served, _) = try await server.client.exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
            let (lasted, cut) = await trickled
            #expect(cut, "the slow head was never cut (lasted \(lasted))")
            #expect(lasted < .seconds(2 + 20), "cut only after \(lasted)")
            #expect(server.log.all.map(\.path) == ["/served"])
        }
    }

    @Test func slowClientsAtTheAddressLimitDoNotKeepOthersOut() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.requestHeadTimeoutSeconds = 2
            $0.maximumConnectionsPerAddress = 4
        }
        try await TestServer.with(configure: configure) { server in
            var slow: [RawConnection] = []
            for _ in 0..<4 {
                let connection = try await RawConnection.open(RawHTTPClient(port: server.port, source: "127.0.0.1"))
                try await connection.send(Array("GET /slow HTTP/1.1\r\n".utf8))
                slow.append(connection)
            }
            let (served, _) = try await RawHTTPClient(port: server.port, source: "127.0.0.2")
                .exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
            // The slow ones are closed after the deadline, and the address is served again.
            for connection in slow {
                let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(2 + 25))
                #expect(closed && bytes.isEmpty)
            }
            let (again, _) = try await RawHTTPClient(port: server.port, source: "127.0.0.1")
                .exchangeUntilClosed(Self.request, timeout: .seconds(20))
            #expect(again.map(\.status) == [200])
        }
    }

    @Test func idleKeepAliveConnectionOwesItsNextHeadWithinTheDeadline() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.requestHeadTimeoutSeconds = 2 }
        try await TestServer.with(configure: configure) { server in
            let connection = try await RawConnection.open(server.client)
            try await connection.send(Array("GET /first HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
            let start = ContinuousClock.now
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(2 + 25))
            #expect(RawHTTPClient.responses(in: bytes).map(\.status) == [200])
            #expect(closed)
            #expect(ContinuousClock.now - start < .seconds(2 + 25))
        }
    }

    /// A loop that stalls past the deadline (a loaded machine) while a head arrives reads that head
    /// before it judges the connection: the head came in time and is served. Failed while the
    /// deadlines were enforced by a task of their own, which ran before the loop read the socket.
    @Test func headThatArrivedWhileTheLoopStalledIsServed() async throws {
        let group = EventLoopGroup(count: 1)
        defer { group.shutdown() }
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.requestHeadTimeoutSeconds = 2
            $0.loops = group
        }
        try await TestServer.with(configure: configure) { server in
            let connection = try await RawConnection.open(server.client)
            let accepting = ContinuousClock.now
            while server.server.openConnectionCount == 0, ContinuousClock.now - accepting < .seconds(20) {
                try await Task.sleep(for: .milliseconds(10))
            }
            try #require(server.server.openConnectionCount == 1, "the connection was never accepted")
            // The loop is busy for longer than the deadline; the whole head arrives meanwhile.
            #expect(group.loops[0].execute { usleep(3_000_000) })
            try await connection.send(Array("GET /late HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8))
            let (bytes, _) = await connection.readUntilClosed(timeout: .seconds(60))
            #expect(RawHTTPClient.responses(in: bytes).map(\.status) == [200])
        }
    }

    @Test func headThatArrivesInTimeIsServedEvenWithASlowStart() async throws {
        // A deadline far above the pause: only a broken deadline (measured from the wrong moment,
        // or moved by nothing) can cut this head, however loaded the machine is.
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.requestHeadTimeoutSeconds = 30 }
        try await TestServer.with(configure: configure) { server in
            let connection = try await RawConnection.open(server.client)
            try await connection.send(Array("GET /ok HTTP/1.1\r\n".utf8))
            try await Task.sleep(for: .milliseconds(500))
            try await connection.send(Array("Host: t\r\nConnection: close\r\n\r\n".utf8))
            let (bytes, _) = await connection.readUntilClosed(timeout: .seconds(60))
            #expect(RawHTTPClient.responses(in: bytes).map(\.status) == [200])
        }
    }
}
