import Foundation
import PasskeyHTTP
import Synchronization
import Testing

/// Slow async handlers, many clients, and clients that leave while their handler runs.
@Suite struct HTTPServerConcurrencyTests {
    /// Counts handlers running at once.
    final class Gauge: Sendable {
        private let counts = Mutex((current: 0, peak: 0))

        func enter() {
            counts.withLock {
                $0.current += 1
                $0.peak = max($0.peak, $0.current)
            }
        }
        func leave() { counts.withLock { $0.current -= 1 } }
        var peak: Int { counts.withLock { $0.peak } }
    }

    @Test func manySlowRequestsAreAllAnsweredConcurrently() async throws {
        let gauge = Gauge()
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
            gauge.enter()
            try? await Task.sleep(for: .milliseconds(100))
            gauge.leave()
            return HTTPResponse(status: 200, contentType: "text/plain", body: Array(request.path.utf8))
        }
        try await TestServer.with(handler: handler) { server in
            let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                var answered = 0
                for index in 0..<50 {
                    if index >= 20, try await group.next() == true { answered += 1 }
                    group.addTask {
                        let result = try await server.send("GET", "/slow/\(index)")
                        return result.status == 200 && result.body == Array("/slow/\(index)".utf8)
                    }
                }
                for try await ok in group where ok { answered += 1 }
                return answered
            }
            #expect(answers == 50)
            // Behaviour, not timing: at least 10 handlers were running at the same moment.
            #expect(gauge.peak >= 10)
        }
    }

    @Test func clientClosingDuringTheHandlerLeavesTheServerServing() async throws {
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
            try? await Task.sleep(for: .milliseconds(200))
            return HTTPResponse(status: 200, contentType: "application/json", body: Array(#"{"ok":true}"#.utf8))
        }
        try await TestServer.with(handler: handler) { server in
            let request = Array("POST /slow HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello".utf8)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await server.client.sendAndClose(request, after: .milliseconds(20)) }
                }
                try await group.waitForAll()
            }
            // Every closed client's request reached the handler (a state, not a pause).
            try await Self.waitFor { server.log.all.count == 10 }
            let result = try await server.send("GET", "/after")
            #expect(result.status == 200)
            #expect(server.log.all.count == 11)
            try await Self.waitFor { server.server.openRequestCount == 0 }
            #expect(server.server.openRequestCount == 0)
        }
    }

    @Test func keepAliveConnectionServesSeveralRequests() async throws {
        try await TestServer.with { server in
            for index in 0..<20 {
                let result = try await server.send("POST", "/k/\(index)", body: Array("body \(index)".utf8))
                #expect(result.status == 200)
                #expect(result.body == Array("body \(index)".utf8))
            }
            try await Self.waitFor { server.server.openRequestCount == 0 }
            #expect(server.server.openRequestCount == 0)
        }
    }

    /// Polls `condition` for up to 2 s.
    /// Waits until `condition` holds, for up to 30 s (a loaded machine is slow, never this slow).
    static func waitFor(_ condition: () -> Bool) async throws {
        let start = ContinuousClock.now
        while !condition(), ContinuousClock.now - start < .seconds(30) {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
