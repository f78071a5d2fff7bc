import Foundation
import PasskeyHTTP
import Testing

/// The 64 KiB body limit: exactly 65,536 bytes pass, one more is refused with the configured
/// 413 before the handler runs, whether the length is declared or the body is chunked.
@Suite struct HTTPServerBodyLimitTests {
    static let limit = 65_536

    static func body(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) } }

    @Test func bodyOfExactlyTheLimitIsAccepted() async throws {
        try await TestServer.with { server in
            let body = Self.body(Self.limit)
            let result = try await server.send("POST", "/upload", body: body)
            #expect(result.status == 200)
            #expect(result.body == body)
            #expect(server.log.all.first?.body.count == Self.limit)
        }
    }

    @Test func bodyOneByteOverTheLimitIsRefused() async throws {
        try await TestServer.with { server in
            let result = try await server.send("POST", "/upload", body: Self.body(Self.limit + 1))
            #expect(result.status == 413)
            #expect(result.response.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
            #expect(result.body == TestServer.tooLargeBody)
            #expect(server.log.all.isEmpty)
        }
    }

    @Test func oversizedContentLengthIsAnsweredBeforeTheBodyIsSent() async throws {
        try await TestServer.with { server in
            let head = "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(Self.limit + 1)\r\n\r\n"
            let response = try await server.client.exchange(Array(head.utf8))
            #expect(response.status == 413)
            #expect(response.body == TestServer.tooLargeBody)
            #expect(server.log.all.isEmpty)
        }
    }

    @Test func oversizedUploadExpectingContinueGetsNo100() async throws {
        try await TestServer.with { server in
            let head =
                "PUT /upload HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: \(Self.limit + 1)\r\n\r\n"
            let response = try await server.client.exchange(Array(head.utf8))
            #expect(response.status == 413)
            #expect(server.log.all.isEmpty)
        }
    }

    @Test func hugeContentLengthIsRefused() async throws {
        try await TestServer.with { server in
            let head = "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999\r\n\r\n"
            let response = try await server.client.exchange(Array(head.utf8))
            #expect(response.status == 413)
            #expect(server.log.all.isEmpty)
        }
    }

    @Test(arguments: [1_000, 65_536])
    func chunkedBodyOfExactlyTheLimitIsAccepted(chunkSize: Int) async throws {
        try await TestServer.with { server in
            let body = Self.body(Self.limit)
            let request = RawHTTPClient.chunkedPost(path: "/chunked", body: body, chunkSize: chunkSize)
            let response = try await server.client.exchange(request)
            #expect(response.status == 200)
            #expect(response.body == body)
            #expect(server.log.all.first?.body == body)
        }
    }

    @Test(arguments: [1_000, 65_537])
    func chunkedBodyOneByteOverTheLimitIsRefused(chunkSize: Int) async throws {
        try await TestServer.with { server in
            let request = RawHTTPClient.chunkedPost(
                path: "/chunked", body: Self.body(Self.limit + 1), chunkSize: chunkSize)
            let response = try await server.client.exchange(request)
            #expect(response.status == 413)
            #expect(response.body == TestServer.tooLargeBody)
            #expect(server.log.all.isEmpty)
        }
    }

    @Test func smallerLimitIsHonoured() async throws {
        let limitToTen: (inout HTTPServer.Configuration) -> Void = { $0.maximumBodyBytes = 10 }
        try await TestServer.with(configure: limitToTen) { server in
            let atLimit = try await server.send("POST", "/a", body: Self.body(10)).status
            let overLimit = try await server.send("POST", "/a", body: Self.body(11)).status
            #expect(atLimit == 200)
            #expect(overLimit == 413)
        }
    }
}
