import Foundation
import PasskeyHTTP
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the handler sees of a request, and how responses come back.
@Suite struct HTTPServerRequestTests {
    @Test func getPassesMethodRawPathQueryHeadersAndPeer() async throws {
        try await TestServer.with { server in
            let result = try await server.send("GET", "/v1/a%20b/c?x=1&y=%2F&z", headers: ["X-Test": "Value 1"])
            #expect(result.status == 200)
            #expect(result.response.value(forHTTPHeaderField: "X-Echo-Method") == "GET")
            let request = try #require(server.log.all.first)
            #expect(request.method == "GET")
            #expect(request.path == "/v1/a%20b/c")
            #expect(request.query == "x=1&y=%2F&z")
            #expect(request.header("X-TEST") == "Value 1")
            #expect(request.headers.contains { $0.name == "x-test" && $0.value == "Value 1" })
            #expect(request.remoteAddress == "127.0.0.1")
            #expect(request.body.isEmpty)
        }
    }

    @Test func pathWithoutQuestionMarkHasNoQuery() async throws {
        try await TestServer.with { server in
            _ = try await server.send("GET", "/healthz")
            let request = try #require(server.log.all.first)
            #expect(request.path == "/healthz")
            #expect(request.query == nil)
        }
    }

    @Test func postBodyIsEchoed() async throws {
        try await TestServer.with { server in
            let body = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let result = try await server.send(
                "POST", "/v1/sessions", headers: ["Content-Type": "application/json"], body: body)
            #expect(result.status == 200)
            #expect(result.body == body)
            #expect(result.response.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
            let request = try #require(server.log.all.first)
            #expect(request.method == "POST")
            #expect(request.header("content-type") == "application/json")
            #expect(request.body == body)
        }
    }

    @Test func repeatedHeaderKeepsOrderAndFirstValueWins() async throws {
        try await TestServer.with { server in
            let raw = "GET /h HTTP/1.1\r\nHost: test\r\nX-Forwarded-For: 10.0.0.1\r\nX-Forwarded-For: 10.0.0.2\r\n\r\n"
            let response = try await server.client.exchange(Array(raw.utf8))
            #expect(response.status == 200)
            let request = try #require(server.log.all.first)
            #expect(request.header("x-forwarded-for") == "10.0.0.1")
            #expect(request.headers.filter { $0.name == "x-forwarded-for" }.map(\.value) == ["10.0.0.1", "10.0.0.2"])
        }
    }

    @Test func statusHeadersAndEmptyBodyAreSent() async throws {
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { _ in
            HTTPResponse(status: 405, headers: [("Allow", "GET, POST"), ("Content-Length", "999")])
        }
        try await TestServer.with(handler: handler) { server in
            let response = try await server.client.exchange(Array("DELETE /x HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
            #expect(response.status == 405)
            #expect(response.header("allow") == "GET, POST")
            #expect(response.header("content-length") == "0")
            #expect(response.body.isEmpty)
        }
    }

    @Test func ipv6LoopbackIsServedWithItsPeerAddress() async throws {
        try await TestServer.with(host: "::1") { server in
            let response = try await server.client.exchange(Array("GET /six HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
            #expect(response.status == 200)
            #expect(server.log.all.first?.remoteAddress == "::1")
        }
    }

    @Test func dualStackAnyAddressAcceptsIPv4WithPlainPeerAddress() async throws {
        try await TestServer.with(host: "::") { server in
            let client = RawHTTPClient(host: "127.0.0.1", port: server.port)
            let response = try await client.exchange(Array("GET /four HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
            #expect(response.status == 200)
            #expect(server.log.all.first?.remoteAddress == "127.0.0.1")
        }
    }

    @Test func malformedContentLengthIsRefusedWithoutTheHandler() async throws {
        try await TestServer.with { server in
            let raw = "POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 12abc\r\n\r\nhello"
            let response = try await server.client.exchange(Array(raw.utf8))
            #expect(response.status == 400)
            #expect(server.log.all.isEmpty)
        }
    }
}
