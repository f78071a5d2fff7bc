import Foundation
import PasskeyHTTP
import Testing

/// The documented exceptions to "every answer is problem+json" (docs/http.md, "Answers
/// libmicrohttpd gives itself"): libmicrohttpd 0.9.75 answers these shapes inside `MHD_run`,
/// before any callback of ours can see the request, with fixed HTML bodies and no hook to
/// replace them. Pinned here over raw sockets, so an upgrade that changes any of them fails: each
/// gets exactly the status below (or, for a head just over the memory pool, no answer), the
/// connection is closed, and the handler never runs, so none can smuggle a second request.
@Suite struct HTTPServerLibraryAnswerTests {
    static let second = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"

    static let shapes: [(name: String, request: String, status: Int)] = [
        ("malformed Content-Length", "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: 5x\r\n\r\nhello", 400),
        ("header line without a colon", "GET /a HTTP/1.1\r\nHost: t\r\nNoColonHere\r\n\r\n", 400),
        ("HTTP/2.0 request line", "GET /a HTTP/2.0\r\nHost: t\r\n\r\n", 505),
        ("HTTP/3.0 request line", "GET /a HTTP/3.0\r\nHost: t\r\n\r\n", 505),
        ("HTTP/0.9 request line", "GET /a HTTP/0.9\r\nHost: t\r\n\r\n", 505),
        ("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
        (
            "malformed chunk size",
            "POST /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400
        ),
        (
            "head far over the memory pool",
            "GET /a HTTP/1.1\r\nHost: t\r\nX-Big: "
                + String(repeating: "b", count: 200_000) + "\r\n\r\n", 431
        ),
        (
            "request line over the memory pool",
            "GET /" + String(repeating: "a", count: 200_000) + " HTTP/1.1\r\nHost: t\r\n\r\n", 414
        ),
    ]

    @Test(arguments: shapes.indices)
    func libmicrohttpdAnswersItselfAndCloses(shape index: Int) async throws {
        let shape = Self.shapes[index]
        try await TestServer.with { server in
            let connection = try await RawConnection.open(server.client)
            // The server may close while a long request is still being sent: that is its answer.
            try? await connection.send(Array((shape.request + Self.second).utf8))
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(20))
            let responses = RawHTTPClient.responses(in: bytes)
            #expect(responses.first?.status == shape.status, "\(shape.name): \(responses.map(\.status))")
            // Its fixed HTML page, sent without a Content-Type.
            #expect(responses.first?.header("content-type") == nil, "\(shape.name)")
            let page = String(decoding: responses.first?.body ?? [], as: UTF8.self)
            // (For a malformed Content-Length the status line and headers come twice: a 0.9.75 bug.)
            #expect(page.contains("<html>"), "\(shape.name): \(page.prefix(80))")
            #expect(closed, "\(shape.name): connection left open")
            #expect(server.log.all.isEmpty, "\(shape.name): reached the handler")
            connection.close()
        }
    }

    /// Shapes libmicrohttpd closes without any answer: nothing to parse, nothing served.
    static let unanswered: [(name: String, request: String)] = [
        (
            "head just over the memory pool",
            "GET /a HTTP/1.1\r\nHost: t\r\nX-Big: " + String(repeating: "b", count: 32_500) + "\r\n\r\n"
        ),
        ("request line without a space", "GET/a\r\nHost: t\r\n\r\n"),
    ]

    @Test(arguments: unanswered.indices)
    func libmicrohttpdClosesWithoutAnAnswer(shape index: Int) async throws {
        let shape = Self.unanswered[index]
        try await TestServer.with { server in
            let connection = try await RawConnection.open(server.client)
            try? await connection.send(Array((shape.request + Self.second).utf8))
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(20))
            let answer = String(decoding: bytes.prefix(80), as: UTF8.self)
            #expect(answer.isEmpty, "\(shape.name): \(answer)")
            #expect(closed, "\(shape.name): connection left open")
            #expect(server.log.all.isEmpty, "\(shape.name): reached the handler")
            connection.close()
        }
    }
}
