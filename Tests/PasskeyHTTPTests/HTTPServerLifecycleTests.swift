import Foundation
import PasskeyHTTP
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Starting, binding errors and graceful shutdown.
@Suite struct HTTPServerLifecycleTests {
    /// Flips once the handler has started.
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    @Test func portZeroBindsAnEphemeralPort() async throws {
        try await TestServer.with { server in
            #expect(server.port > 0)
            let status = try await server.send("GET", "/").status
            #expect(status == 200)
        }
    }

    @Test func startOnAPortInUseThrows() async throws {
        try await TestServer.with { first in
            let second = HTTPServer(configuration: .init(host: "127.0.0.1", port: first.port)) { _ in
                HTTPResponse(status: 200)
            }
            #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)) { try second.start() }
            let error = HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)
            #expect(error.description.contains("address already in use"))
            // The first server is unaffected.
            let status = try await first.send("GET", "/").status
            #expect(status == 200)
        }
    }

    @Test(arguments: ["localhost.example", "256.1.1.1", "", "::1::"])
    func startWithAnInvalidHostThrows(host: String) {
        let server = HTTPServer(configuration: .init(host: host, port: 0)) { _ in HTTPResponse(status: 200) }
        #expect(throws: HTTPServerError.invalidHost(host)) { try server.start() }
    }

    @Test func startWithAnAddressOfAnotherMachineThrows() {
        let server = HTTPServer(configuration: .init(host: "192.0.2.1", port: 0)) { _ in HTTPResponse(status: 200) }
        #expect {
            try server.start()
        } throws: { error in
            guard case .addressUnavailable(let host, _, _) = error as? HTTPServerError else { return false }
            return host == "192.0.2.1"
        }
    }

    @Test func startTwiceThrows() async throws {
        try await TestServer.with { server in
            #expect(throws: HTTPServerError.alreadyStarted) { try server.server.start() }
        }
    }

    @Test func shutdownWaitsForTheRequestInFlightThenRefusesConnections() async throws {
        let entered = Flag()
        let finished = Flag()
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { _ in
            entered.set()
            try? await Task.sleep(for: .milliseconds(300))
            finished.set()
            return HTTPResponse(status: 200, contentType: "text/plain", body: Array("finished".utf8))
        }
        let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2)
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        let client = RawHTTPClient(port: server.port)
        let inFlight = Task { try await client.exchange(Array("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n".utf8)) }
        let waiting = ContinuousClock.now
        while !entered.isSet, ContinuousClock.now - waiting < .seconds(30) {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(entered.isSet, "the handler never started")

        await server.shutdown(gracePeriod: .seconds(5))
        // Shutdown returned only after the handler had finished (a state, not a timing: the
        // old check of the elapsed time failed when the machine was busy).
        #expect(finished.isSet)

        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.body == Array("finished".utf8))
        #expect(try await client.connectionError() == ECONNREFUSED)
        await server.shutdown(gracePeriod: .seconds(1))  // idempotent
    }

    @Test func handlerOutlivingTheGracePeriodGetsTheShutdownResponse() async throws {
        let entered = Flag()
        let released = Flag()
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { _ in
            entered.set()
            // Ignores cancellation on purpose, and ends only once the test has seen the shutdown
            // return (never by a timer, which a loaded machine could outlast): the server must
            // answer without it.
            let deadline = ContinuousClock.now + .seconds(120)
            while !released.isSet, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            return HTTPResponse(status: 200)
        }
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 2), handler: handler)
        try server.start()
        // The server must outlive the client's read: released after its last use, its loops would
        // stop with the 503 still to be written (what a loaded machine showed once).
        defer { withExtendedLifetime(server) { released.set() } }
        // A generous read timeout: the full suite keeps both cores and the cooperative pool busy,
        // and the shutdown's steps were seen to take longer than 10 s to reach the 503 there.
        var client = RawHTTPClient(port: server.port)
        client.socketTimeoutSeconds = 60
        let inFlight = Task { [client] in
            try await client.exchange(Array("GET /stuck HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        }
        let waiting = ContinuousClock.now
        while !entered.isSet, ContinuousClock.now - waiting < .seconds(30) {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(entered.isSet, "the handler never started")

        await server.shutdown(gracePeriod: .milliseconds(200))
        released.set()
        let response = try await inFlight.value
        // 503 rather than the handler's 200: the client was answered without waiting for it.
        #expect(response.status == 503)
        #expect(response.header("connection") == "close")
    }

    @Test func shutdownBeforeStartAndTwiceIsHarmless() async throws {
        let server = HTTPServer(configuration: .init(port: 0)) { _ in HTTPResponse(status: 200) }
        await server.shutdown(gracePeriod: .seconds(1))
        await server.shutdown(gracePeriod: .seconds(1))
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
    }
}
