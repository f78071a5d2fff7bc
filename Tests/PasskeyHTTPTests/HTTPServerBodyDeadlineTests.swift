import Foundation
import PasskeyHTTP
import Testing

/// The body deadline (`requestBodyTimeoutSeconds`): a body trickled past it gets a 408
/// problem+json with `Connection: close`, written by the layer itself, and never reaches the
/// handler; a body that arrives in time, however it is split, is served. Timings bound the
/// answer only from above, so a loaded machine cannot fail them.
@Suite struct HTTPServerBodyDeadlineTests {
    static func head(length: Int) -> [UInt8] {
        Array("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(length)\r\n\r\n".utf8)
    }

    @Test func aTrickledBodyGetsA408ProblemAndNeverReachesTheHandler() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.requestBodyTimeoutSeconds = 1
            $0.requestHeadTimeoutSeconds = 60
        }
        try await TestServer.with(configure: configure) { server in
            let connection = try await RawConnection.open(server.client)
            try await connection.send(Self.head(length: 100))
            let start = ContinuousClock.now
            var answer: (bytes: [UInt8], closed: Bool) = ([], false)
            // One byte every 300 ms: each byte would restart an idle timeout, not this deadline.
            for _ in 0..<100 {
                try? await connection.send([UInt8(ascii: "x")])
                answer = await connection.readUntilClosed(timeout: .milliseconds(300))
                if !answer.bytes.isEmpty || answer.closed || ContinuousClock.now - start > .seconds(25) { break }
            }
            if !answer.closed {
                let rest = await connection.readUntilClosed(timeout: .seconds(20))
                answer = (answer.bytes + rest.bytes, rest.closed)
            }
            let responses = RawHTTPClient.responses(in: answer.bytes)
            #expect(responses.map(\.status) == [408])
            let response = try #require(responses.first)
            #expect(response.header("content-type") == "application/problem+json")
            #expect(response.header("connection")?.lowercased() == "close")
            #expect(String(decoding: response.body, as: UTF8.self).contains(#""code":"invalid-request""#))
            #expect(ContinuousClock.now - start < .seconds(1 + 20))
            #expect(server.log.all.isEmpty, "the late body never reached the handler")
            connection.close()
            // The server goes on serving.
            let (served, _) = try await server.client.exchangeUntilClosed(
                Self.head(length: 2) + Array("ok".utf8), timeout: .seconds(20))
            #expect(served.map(\.status) == [200])
        }
    }

    @Test func aBodySentInPiecesWithinTheDeadlineIsServed() async throws {
        let configure: (inout HTTPServer.Configuration) -> Void = { $0.requestBodyTimeoutSeconds = 30 }
        try await TestServer.with(configure: configure) { server in
            let connection = try await RawConnection.open(server.client)
            try await connection.send(Self.head(length: 6))
            for piece in ["ab", "cd", "ef"] {
                try await Task.sleep(for: .milliseconds(200))
                try await connection.send(Array(piece.utf8))
            }
            let answer = await connection.readUntilClosed(timeout: .seconds(2))
            let responses = RawHTTPClient.responses(in: answer.bytes)
            #expect(responses.map(\.status) == [200])
            #expect(responses.first?.body == Array("abcdef".utf8))
            connection.close()
        }
    }
}
