import Foundation
import PasskeyClient
import Testing

/// (v4) `serviceToken(audience:)` on a stubbed server: the request, the kept token until 30 s
/// before its `exp`, one request for concurrent callers, per session and audience.
@Suite struct PasskeyClientServiceTokenTests {
    static func answer(_ token: String, audience: String = "https://api.example.com", expiresIn seconds: TimeInterval)
        -> String
    {
        let formatter = ISO8601DateFormatter()
        let expiresAt = formatter.string(from: Date().addingTimeInterval(seconds))
        return #"{"audience":"\#(audience)","expiresAt":"\#(expiresAt)","token":"\#(token)","tokenType":"JWT"}"#
    }

    @Test func theRequestAndItsAnswer() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "session-token")
        let answeredAt = Date()
        stub.respond(status: 201, Self.answer("jwt-1", audience: "https://reports.example.com", expiresIn: 300))
        let minted = try await client.serviceToken(audience: "https://reports.example.com")
        #expect(minted.token == "jwt-1")
        #expect(minted.audience == "https://reports.example.com")
        // The answer's expiresAt (whole seconds), however long the call took on a busy machine.
        #expect(abs(minted.expiresAt.timeIntervalSince(answeredAt) - 300) < 2)
        let request = try #require(stub.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/sessions/current/tokens")
        #expect(request.headers["authorization"] == "Bearer session-token")
        let body = try #require(request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(body["audience"] as? String == "https://reports.example.com")
    }

    @Test func printingATokenNeverShowsIt() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "session-token")
        stub.respond(status: 201, Self.answer("eyJ.secret-jwt.sig", expiresIn: 300))
        let minted = try await client.serviceToken()
        var dumped = ""
        dump(minted, to: &dumped)
        for text in ["\(minted)", String(describing: minted), String(reflecting: minted), dumped] {
            #expect(!text.contains("secret-jwt"), "\(text)")
            #expect(text.contains("https://api.example.com"))
        }
    }

    @Test func aTokenIsKeptUntilThirtySecondsBeforeItExpires() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "session-token")
        stub.respond(status: 201, Self.answer("long", expiresIn: 300))
        #expect(try await client.serviceToken().token == "long")
        #expect(try await client.serviceToken().token == "long")
        #expect(stub.requests.count == 1)
        // Another audience is another token.
        stub.respond(status: 201, Self.answer("other", audience: "https://reports.example.com", expiresIn: 300))
        #expect(try await client.serviceToken(audience: "https://reports.example.com").token == "other")
        #expect(stub.requests.count == 2)

        // One that expires within 30 s is asked for again.
        let short = stub.client(accessToken: "second-session")
        stub.respond(status: 201, Self.answer("short", expiresIn: 20))
        stub.respond(status: 201, Self.answer("renewed", expiresIn: 300))
        #expect(try await short.serviceToken().token == "short")
        #expect(try await short.serviceToken().token == "renewed")
        #expect(stub.requests.count == 4)
    }

    @Test func concurrentCallersShareOneRequest() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "session-token")
        stub.respond(status: 201, Self.answer("shared", expiresIn: 300))
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await client.serviceToken().token } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens == Array(repeating: "shared", count: 8))
        #expect(stub.requests.count == 1)
    }

    @Test func aNewSessionOrAFailureStartsAfresh() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "first")
        stub.respond(status: 201, Self.answer("of-first", expiresIn: 300))
        #expect(try await client.serviceToken().token == "of-first")
        client.setAccessToken("second")
        stub.respond(
            status: 503,
            #"{"code":"tokens-unavailable","detail":"Off.","status":503,"title":"Service Unavailable","type":"about:blank"}"#
        )
        await #expect(throws: PasskeyClientError.self) { try await client.serviceToken() }
        stub.respond(status: 201, Self.answer("of-second", expiresIn: 300))
        #expect(try await client.serviceToken().token == "of-second")
        #expect(stub.requests.last?.headers["authorization"] == "Bearer second")
        let signedOut = stub.client()
        await #expect(throws: PasskeyClientError.notSignedIn) { try await signedOut.serviceToken() }
    }
}
