import Foundation
import PasskeyHTTP
import Testing

/// Requests that parsers could read differently are refused with one 400 problem+json and the
/// connection closed, so the request hidden behind them is never answered.
@Suite struct HTTPServerSmugglingTests {
    /// A request that would be answered by itself if it were ever parsed.
    static let second = "GET /second HTTP/1.1\r\nHost: t\r\n\r\n"

    static let shapes: [(name: String, head: String)] = [
        (
            "two different Content-Length",
            "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 40\r\n\r\nhello"
        ),
        (
            "Content-Length then Transfer-Encoding",
            "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
        (
            "Transfer-Encoding then Content-Length",
            "POST /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"
        ),
        (
            "Transfer-Encoding other than chunked",
            "POST /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"
        ),
        ("space before colon", "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length : 5\r\n\r\nhello"),
        ("tab before colon", "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length\t: 5\r\n\r\nhello"),
        ("folded line (space)", "GET /a HTTP/1.1\r\nHost: t\r\nX-A: one\r\n two\r\n\r\n"),
        ("folded line (tab)", "GET /a HTTP/1.1\r\nHost: t\r\nX-A: one\r\n\ttwo\r\n\r\n"),
        ("folded Content-Length", "POST /a HTTP/1.1\r\nHost: t\r\nX-A: one\r\n Content-Length: 5\r\n\r\nhello"),
        ("bare LF everywhere", "GET /a HTTP/1.1\nHost: t\nX-A: b\n\n"),
        ("bare LF after the request line", "GET /a HTTP/1.1\nHost: t\r\n\r\n"),
        ("bare LF in one header line", "GET /a HTTP/1.1\r\nHost: t\nX-A: b\r\n\r\n"),
        ("bare LF on the last header line", "GET /a HTTP/1.1\r\nHost: t\r\nX-A: b\n\r\n"),
        ("bare LF as the blank line", "GET /a HTTP/1.1\r\nHost: t\r\n\n"),
        ("bare CR inside a value", "GET /a HTTP/1.1\r\nHost: t\rX-Evil: 1\r\n\r\n"),
        ("HTTP/1.1 without Host", "GET /a HTTP/1.1\r\nX-A: b\r\n\r\n"),
        ("two Host fields", "GET /a HTTP/1.1\r\nHost: t\r\nHost: u\r\n\r\n"),
        ("space inside the target", "GET /a b HTTP/1.1\r\nHost: t\r\n\r\n"),
    ]

    @Test(arguments: shapes.indices)
    func ambiguousRequestIsRefusedOnceAndTheConnectionClosed(shape index: Int) async throws {
        let shape = Self.shapes[index]
        try await TestServer.with { server in
            let request = Array((shape.head + Self.second).utf8)
            let (responses, closed) = try await server.client.exchangeUntilClosed(request)
            #expect(responses.count == 1, "\(shape.name): \(responses.map(\.status))")
            #expect(responses.first?.status == 400, "\(shape.name)")
            #expect(responses.first?.header("content-type") == "application/problem+json", "\(shape.name)")
            #expect(responses.first?.header("connection") == "close", "\(shape.name)")
            let body = String(decoding: responses.first?.body ?? [], as: UTF8.self)
            #expect(body.contains(#""code":"invalid-request""#), "\(shape.name): \(body)")
            #expect(body.contains(#""status":400"#), "\(shape.name): \(body)")
            #expect(closed, "\(shape.name): connection left open")
            #expect(server.log.all.isEmpty, "\(shape.name): reached the handler")
        }
    }

    static let acceptable: [(name: String, head: String)] = [
        (
            "identical Content-Length twice",
            "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello"
        ),
        ("empty value and trailing whitespace", "GET /a HTTP/1.1\r\nHost: t  \r\nX-Empty:\r\nX-Tab:\t\r\n\r\n"),
        ("HTTP/1.0 without Host", "GET /a HTTP/1.0\r\nX-A: b\r\n\r\n"),
        ("chunked body", "POST /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        (
            "a 12 KiB head",
            "GET /a HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 12_000))\r\n"
                + (0..<40).map { "X-F\($0): v\($0)\r\n" }.joined() + "\r\n"
        ),
    ]

    @Test(arguments: acceptable.indices)
    func strictButValidRequestsAreServedWithPipelining(shape index: Int) async throws {
        let shape = Self.acceptable[index]
        try await TestServer.with { server in
            let request = Array(
                (shape.head + Self.second + "GET /third HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").utf8)
            let (responses, _) = try await server.client.exchangeUntilClosed(request)
            let expected = shape.head.contains("HTTP/1.0") ? [200] : [200, 200, 200]
            #expect(responses.map(\.status) == expected, "\(shape.name)")
            #expect(server.log.all.first?.path == "/a", "\(shape.name)")
        }
    }

    @Test func headOverTheLimitGets431ProblemJSON() async throws {
        let limitTo4KiB: (inout HTTPServer.Configuration) -> Void = { $0.maximumHeadBytes = 4_096 }
        try await TestServer.with(configure: limitTo4KiB) { server in
            let head = "GET /a HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 5_000))\r\n\r\n"
            let (responses, closed) = try await server.client.exchangeUntilClosed(Array((head + Self.second).utf8))
            #expect(responses.map(\.status) == [431])
            #expect(responses.first?.header("content-type") == "application/problem+json")
            #expect(closed)
            #expect(server.log.all.isEmpty)
        }
    }

    @Test func defaultLayerErrorsAreProblemJSON() {
        let expected = [
            400: "invalid-request", 413: "payload-too-large", 431: "invalid-request", 503: "service-unavailable",
        ]
        let configuration = HTTPServer.Configuration()
        for (status, code) in expected {
            let response =
                status == 413
                ? configuration.tooLarge()
                : status == 503
                    ? configuration.shutdownResponse()
                    : configuration.layerError(HTTPStatus(status))
            #expect(response.status.code == status)
            #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "application/problem+json" })
            let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(json?["code"] as? String == code)
            #expect(json?["status"] as? Int == status)
            #expect(json?["type"] as? String == "about:blank")
            #expect(json?["title"] is String && json?["detail"] is String)
        }
    }
}
