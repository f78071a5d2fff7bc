import Foundation
import PasskeyEventLoop
import PasskeyHTTP
import Synchronization
import Testing

/// One daemon per event loop: connections are spread over the loops by the kernel
/// (`SO_REUSEPORT`), each request's handler runs on the loop that read it, one loop still works,
/// and shutdown drains requests in flight on every loop. Behaviour only, never timings.
@Suite struct HTTPServerEventLoopTests {
    /// Answers with the loop that read the request and the loop the handler runs on, before and
    /// after a suspension.
    static func whereAmI(_ request: HTTPRequest) async -> HTTPResponse {
        let start = EventLoop.current?.index ?? -1
        try? await Task.sleep(for: .milliseconds(5))
        let end = EventLoop.current?.index ?? -1
        return HTTPResponse(
            status: 200,
            headers: [("X-Read-By", String(request.eventLoopIndex ?? -1)), ("X-Ran-On", "\(start),\(end)")])
    }

    static let request = Array("GET /where HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)

    @Test func requestsAreServedByMoreThanOneLoopAndEachOnTheLoopThatReadIt() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.threads = 2 }
        try await TestServer.with(configure: configure, handler: Self.whereAmI) { server in
            #expect(server.server.eventLoopCount == 2)
            var readers: Set<String> = []
            // 32 connections from different source ports: all on one of two loops has odds 2⁻³¹.
            for _ in 0..<32 {
                let response = try await server.client.exchange(Self.request)
                let reader = try #require(response.header("x-read-by"))
                #expect(response.header("x-ran-on") == "\(reader),\(reader)")
                readers.insert(reader)
            }
            #expect(readers == ["0", "1"])
        }
    }

    @Test func oneLoopServesEverything() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.threads = 1 }
        try await TestServer.with(configure: configure, handler: Self.whereAmI) { server in
            #expect(server.server.eventLoopCount == 1)
            for _ in 0..<8 {
                let response = try await server.client.exchange(Self.request)
                #expect(response.status == 200)
                #expect(response.header("x-read-by") == "0")
                #expect(response.header("x-ran-on") == "0,0")
            }
        }
    }

    /// Requests in flight on both loops when shutdown starts all finish with their own answers;
    /// then the port is closed.
    @Test func shutdownDrainsRequestsInFlightOnEveryLoop() async throws {
        let started = Mutex<[Int]>([])
        let release = Mutex<[CheckedContinuation<Void, Never>]>([])
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
            started.withLock { $0.append(request.eventLoopIndex ?? -1) }
            await withCheckedContinuation { continuation in release.withLock { $0.append(continuation) } }
            return HTTPResponse(status: 200, headers: [("X-Read-By", String(request.eventLoopIndex ?? -1))])
        }
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 2), handler: handler)
        try server.start()
        let port = server.port
        // Enough clients that both loops hold some (all on one loop has odds 2⁻¹⁵). They wait
        // for their answers until every one has started and shutdown has begun: on a machine
        // whose cores are all busy that took over 20 s once, past the 10 s default receive timeout.
        let clients = (0..<16).map { _ in
            Task { try await RawHTTPClient(port: port, socketTimeoutSeconds: 90).exchange(Self.request) }
        }
        for _ in 0..<2_000 where started.withLock({ $0.count }) < 16 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(Set(started.withLock { $0 }) == [0, 1])
        let shutdown = Task { await server.shutdown(gracePeriod: .seconds(20)) }
        // New clients are refused while the requests in flight are still running.
        for _ in 0..<500 where (try? RawHTTPClient(port: port).connect()).map({ close($0) }) != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(throws: (any Error).self) { _ = try RawHTTPClient(port: port).connect() }
        for continuation in release.withLock({ $0 }) { continuation.resume() }
        var readers: Set<String> = []
        for client in clients {
            let response = try await client.value
            #expect(response.status == 200)
            readers.insert(response.header("x-read-by") ?? "")
        }
        #expect(readers == ["0", "1"])
        await shutdown.value
        #expect(server.openRequestCount == 0)
    }
}
