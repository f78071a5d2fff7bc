import Foundation
import PasskeyClient
import Testing

/// (v3) `activity(limit:before:)` and `activityPages(pageSize:)`: the query they send and the
/// pages they read (a real server's activity is in PasskeyClientEndToEndTests).
@Suite struct PasskeyClientActivityTests {
    @Test func activitySendsLimitAndBeforeAndReadsThePage() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 200, ContractAnswers.activityPage)
        let page = try await client.activity(limit: 2, before: "AAAA-_")
        let request = try #require(stub.requests.only)
        #expect(request.path == "/v1/account/activity")
        #expect(request.query == "limit=2&before=AAAA-_")
        #expect(page.next == nil)
        let event = try #require(page.events.only)
        #expect(event.kind == "sign-in")
        #expect(event.method == "passkey")
        #expect(event.credentialID == Data([1, 2, 3]))
        #expect(event.sessionID == nil)
        #expect(event.userAgent == "")

        stub.respond(status: 200, ContractAnswers.activityPage)
        _ = try await client.activity()
        #expect(stub.requests.last?.query == nil)
    }

    /// (v4) The support desk's action: who, why, and no address or user agent.
    @Test func anOperatorsActionReadsItsActorAndReason() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(
            status: 200,
            #"""
            {"events":[{"eventID":"e-2","kind":"account.locked","occurredAt":"2026-12-01T19:00:00Z",\#
            "clientAddress":null,"userAgent":null,"actor":"Hanako Sato","reason":"At your request"},\#
            {"eventID":"e-1","kind":"sign-in","occurredAt":"2026-12-01T18:00:00Z","clientAddress":"192.0.2.1",\#
            "userAgent":"","method":"password","actor":null,"reason":null}],"next":null}
            """#)
        let page = try await client.activity()
        let locked = try #require(page.events.first)
        #expect(locked.kind == "account.locked")
        #expect(locked.actor == "Hanako Sato")
        #expect(locked.reason == "At your request")
        #expect(locked.clientAddress == nil)
        #expect(locked.userAgent == nil)
        let signIn = try #require(page.events.last)
        #expect(signIn.actor == nil)
        #expect(signIn.reason == nil)
        #expect(signIn.clientAddress == "192.0.2.1")
    }

    @Test func thePagesFollowNextUntilItIsNull() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        for next in [#""c1""#, #""c2""#, "null"] {
            stub.respond(status: 200, #"{"events":[],"next":\#(next)}"#)
        }
        var pages = 0
        for try await page in client.activityPages(pageSize: 10) {
            pages += 1
            #expect(page.events.isEmpty)
        }
        #expect(pages == 3)
        #expect(stub.requests.map(\.query) == ["limit=10", "limit=10&before=c1", "limit=10&before=c2"])
    }

    @Test func aFailedPageEndsTheLoopWithTheServersError() async throws {
        let stub = StubServer()
        let client = stub.client(accessToken: "held-token")
        stub.respond(status: 200, #"{"events":[],"next":"c1"}"#)
        stub.respond(
            status: 400,
            #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"x","code":"invalid-request"}"#)
        var pages = 0
        await #expect(throws: PasskeyClientError.self) {
            for try await _ in client.activityPages() { pages += 1 }
        }
        #expect(pages == 1)
        #expect(stub.requests.count == 2)
    }
}
