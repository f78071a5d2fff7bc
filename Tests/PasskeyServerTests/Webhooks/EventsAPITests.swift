import Foundation
import PasskeyTestSupport
import Testing

/// (v4) `GET /v1/operator/events` on the real server: the payloads of the real flows' events
/// (`{type, timestamp, data}` with the activity's Event, `accountID` and `actor`), `signed-out`,
/// paging with `after` and `limit`, `next` on an empty page, and the refusals.
@Suite struct EventsAPITests {
    static let token = "operator-token-0123456789"

    /// Every event from `after`, a page of `limit` at a time; the last `next`.
    static func readAll(_ client: TestHTTPClient, after: String? = nil, limit: Int = 1000) async throws
        -> (events: [[String: Any]], next: String?)
    {
        var events: [[String: Any]] = []
        var cursor = after
        while true {
            let query = "limit=\(limit)" + (cursor.map { "&after=\($0)" } ?? "")
            let page = try await client.send("GET", "/v1/operator/events?\(query)", token: token)
            try #require(page.status == 200, "\(page.text)")
            let batch = try #require(page.json["events"] as? [[String: Any]])
            events += batch
            let next = page.json["next"] as? String
            if batch.isEmpty { return (events, next) }
            #expect(next != nil)
            cursor = next
        }
    }

    /// `readAll` until it holds at least `count` events (other tests' transactions in the same
    /// PostgreSQL cluster hold the log back while they run).
    static func readAll(_ client: TestHTTPClient, atLeast count: Int) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let events = try await readAll(client).events
            if events.count >= count || ContinuousClock.now >= deadline { return events }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func theFlowsEventsArriveAsPayloadsInOrder() async throws {
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token]) { server, _ in
            let client = server.client
            let empty = try await client.send("GET", "/v1/operator/events", token: Self.token)
            #expect(empty.status == 200)
            #expect(empty.text == #"{"events":[],"next":null}"#)
            let (token, _) = try await client.passwordUser()
            let account = try await client.send("GET", "/v1/account", token: token)
            let accountID = try #require(account.string("accountID"))
            let signOut = try await client.send(
                "DELETE", "/v1/sessions/current", token: token, headers: ["User-Agent": "Events/1.0"])
            #expect(signOut.status == 204)
            let events = try await Self.readAll(client, atLeast: 3)
            #expect(events.map { $0["type"] as? String } == ["account.created", "sign-in", "signed-out"])
            for event in events {
                let data = try #require(event["data"] as? [String: Any])
                #expect(data["kind"] as? String == event["type"] as? String)
                #expect(data["accountID"] as? String == accountID)
                #expect(data.keys.contains("actor") && data["actor"] is NSNull, "actor is present, null")
                #expect(event["timestamp"] as? String == data["occurredAt"] as? String)
                #expect(data["eventID"] is String)
                #expect(data["clientAddress"] is String)
            }
            let signedOut = try #require(events.last?["data"] as? [String: Any])
            #expect(signedOut["userAgent"] as? String == "Events/1.0")
            #expect(signedOut["sessionID"] is String)
            // The activity shows signed-out too; the session's token is over.
            #expect(try await client.send("GET", "/v1/account", token: token).status == 401)
            // The same events, the same order, a page of one at a time.
            let paged = try await Self.readAll(client, limit: 1)
            #expect(
                paged.events.compactMap { ($0["data"] as? [String: Any])?["eventID"] as? String }
                    == events.compactMap { ($0["data"] as? [String: Any])?["eventID"] as? String })
            // An empty page keeps the cursor: a feed polled from there.
            let last = try await client.send(
                "GET", "/v1/operator/events?after=\(try #require(paged.next))", token: Self.token)
            #expect(last.status == 200)
            #expect((last.json["events"] as? [Any])?.isEmpty == true)
            #expect(last.string("next") == paged.next)
        }
    }

    /// stage.changed through ① → ② → ③ and back to ②, each right after the event that caused it
    /// and from the same session; none at the account's creation or deletion; account.deleted
    /// stays in the log after the account (and its activity) went.
    @Test func stagesChangeThroughTheTalksStepsAndTheDeletionOutlivesTheAccount() async throws {
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token]) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let accountID = try #require(try await client.send("GET", "/v1/account", token: token).string("accountID"))
            var passkey = try TestPasskey()
            let added = try await client.addPasskey(&passkey, token: token)
            #expect(added.status == 204, "\(added.text)")
            let options = try await client.startSignIn()
            let signedIn = try await client.send(
                "POST", "/v1/passkeys/authentications/finish", json: try passkey.assertionBody(options: options))
            let passkeyToken = try #require(signedIn.string("accessToken"))
            #expect(try await client.send("POST", "/v1/account/recovery-codes", token: passkeyToken).status == 201)
            #expect(try await client.send("DELETE", "/v1/account/password", token: passkeyToken).status == 204)
            let set = try await client.send(
                "PUT", "/v1/account/password", json: ["password": "a brand new password"], token: passkeyToken)
            #expect(set.status == 204)
            let deleted = try await client.send("DELETE", "/v1/account", token: passkeyToken)
            #expect(deleted.status == 204, "\(deleted.text)")

            let mine = try await Self.readAll(client, atLeast: 11).compactMap { $0["data"] as? [String: Any] }
                .filter { $0["accountID"] as? String == accountID }
            let kinds = mine.compactMap { $0["kind"] as? String }
            #expect(
                kinds == [
                    "account.created", "sign-in", "passkey.added", "stage.changed", "sign-in",
                    "recovery-codes.created", "password.removed", "stage.changed", "password.set", "stage.changed",
                    "account.deleted",
                ])
            let stages = mine.filter { $0["kind"] as? String == "stage.changed" }.map {
                "\($0["from"] as? String ?? "?") → \($0["to"] as? String ?? "?")"
            }
            #expect(
                stages == [
                    "password-only → password-and-passkey", "password-and-passkey → passkey-only",
                    "passkey-only → password-and-passkey",
                ])
            // Each stage.changed comes from where its cause came: the same session and time.
            for (index, event) in mine.enumerated() where event["kind"] as? String == "stage.changed" {
                let cause = mine[index - 1]
                #expect(event["sessionID"] as? String == cause["sessionID"] as? String)
                #expect(event["occurredAt"] as? String == cause["occurredAt"] as? String)
                #expect(event["clientAddress"] as? String == cause["clientAddress"] as? String)
                #expect(event.keys.contains("from") && event.keys.contains("to"))
            }
            #expect(mine.filter { $0["kind"] as? String != "stage.changed" }.allSatisfy { $0["from"] == nil })
            #expect(mine.last?["sessionID"] as? String != nil)
        }
    }

    @Test func aBadLimitOrCursorIsRefusedAndATokenIsNeeded() async throws {
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token]) { server, _ in
            let client = server.client
            for query in ["limit=0", "limit=1001", "limit=x", "limit=1&limit=2", "after=nope", "after="] {
                let answer = try await client.send("GET", "/v1/operator/events?\(query)", token: Self.token)
                #expect(answer.status == 400, "\(query)")
                #expect(answer.string("code") == "invalid-request", "\(query)")
            }
            #expect(try await client.send("GET", "/v1/operator/events").status == 401)
            #expect(try await client.send("GET", "/v1/operator/events", token: "wrong-token-0123456789").status == 401)
        }
        // Without OPERATOR_TOKEN the path does not exist.
        try await withServer(environment: [:]) { server, _ in
            let answer = try await server.client.send("GET", "/v1/operator/events", token: Self.token)
            #expect(answer.status == 404)
        }
    }
}
