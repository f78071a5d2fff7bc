import Foundation
import PasskeyOpenSSL
import PasskeyTestSupport
import Testing

/// (v4) Webhooks on the real server, to a real HTTP receiver that judges every signature with
/// the Standard Webhooks reference library (`TestWebhookReceiver`, PyPI `standardwebhooks`):
/// the flows' events arrive signed, in each account's order, with the events API's payloads; a
/// failing endpoint gets the same `webhook-id` again until it answers; a dead one is abandoned
/// and holds up no other endpoint; a rotated secret signs beside the old one; a removed endpoint
/// gets nothing more.
@Suite struct WebhookDeliveryTests {
    static let token = EventsAPITests.token

    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "OPERATOR_TOKEN": token, "DATA_ENCRYPTION_KEY": Data(SecureRandom.bytes(count: 32)).base64EncodedString(),
        ].merging(extra) { $1 }
    }

    /// Registers `url`; answers the endpoint's ID and secret.
    static func register(_ client: TestHTTPClient, _ url: String, events: [String]? = nil) async throws
        -> (id: String, secret: String)
    {
        var body: [String: Any] = ["url": url]
        if let events { body["events"] = events }
        let created = try await client.send("POST", "/v1/operator/webhooks", json: body, token: token)
        try #require(created.status == 201, "\(created.text)")
        return (try #require(created.string("webhookID")), try #require(created.string("secret")))
    }

    /// The endpoint as `GET /v1/operator/webhooks` lists it.
    static func listed(_ client: TestHTTPClient, _ id: String) async throws -> [String: Any]? {
        let list = try await client.send("GET", "/v1/operator/webhooks", token: token)
        try #require(list.status == 200, "\(list.text)")
        return (list.json["webhooks"] as? [[String: Any]])?.first { $0["webhookID"] as? String == id }
    }

    /// Polls `condition` for up to 60 s.
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await !condition() {
            try #require(ContinuousClock.now < deadline, "not within 60 s: \(what)")
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test func theFlowsEventsArriveSignedInOrderAsTheEventsAPIServesThem() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        try await withServer(environment: Self.environment()) { server, _ in
            let client = server.client
            let (id, secret) = try await Self.register(client, receiver.url("shop"))
            #expect(secret.hasPrefix("whsec_"))
            try receiver.setSecret(secret, for: "shop")
            let (token, _) = try await client.passwordUser()
            #expect(try await client.send("DELETE", "/v1/sessions/current", token: token).status == 204)
            let received = try await receiver.waitFor(3, name: "shop")
            #expect(received.map(\.verified) == [true, true, true], "the reference library accepts every signature")
            #expect(received.map { $0.json["type"] as? String } == ["account.created", "sign-in", "signed-out"])
            #expect(received.allSatisfy { $0.contentType == "application/json" })
            let timestamps = received.compactMap { Double($0.timestamp) }
            #expect(timestamps.count == 3 && timestamps.allSatisfy { abs($0 - Date().timeIntervalSince1970) < 120 })
            // webhook-id is the event's ID; the body is the events API's payload.
            let events = try await EventsAPITests.readAll(client, atLeast: 3)
            for (delivery, event) in zip(received, events) {
                let data = try #require(event["data"] as? [String: Any])
                #expect(delivery.id == data["eventID"] as? String)
                #expect(NSDictionary(dictionary: delivery.json) == NSDictionary(dictionary: event))
            }
            // The endpoint's counts: nothing pending, nothing abandoned, a last delivery.
            try await Self.eventually("the list shows the deliveries done") {
                let listed = try await Self.listed(client, id)
                return listed?["pending"] as? Int == 0 && listed?["lastDeliveredAt"] is String
            }
            let listed = try #require(try await Self.listed(client, id))
            #expect(listed["abandoned"] as? Int == 0)
            #expect(listed["events"] as? [String] == [])
            #expect(listed["secret"] == nil, "a secret is shown only once")
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.text.contains("passkey_webhook_deliveries_total{result=\"delivered\"} 3\n"))
            #expect(metrics.text.contains("passkey_webhook_oldest_pending_seconds "))
        }
    }

    @Test func aFailingEndpointGetsTheSameIDAgainAndTheAccountsNextEventWaits() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        try await withServer(environment: Self.environment()) { server, _ in
            let client = server.client
            let (_, secret) = try await Self.register(client, receiver.url("crm", .flaky(2)))
            try receiver.setSecret(secret, for: "crm")
            _ = try await client.passwordUser()
            // account.created: 503, 503 (after 1 s, then 2 s), then 204; sign-in: 503, 503, 204.
            let received = try await receiver.waitFor(6, name: "crm")
            let created = received.filter { $0.json["type"] as? String == "account.created" }
            let signIn = received.filter { $0.json["type"] as? String == "sign-in" }
            #expect(created.map(\.status) == [503, 503, 204])
            #expect(Set(created.map(\.id)).count == 1, "one webhook-id on every attempt")
            #expect(created.allSatisfy { $0.verified == true })
            #expect(created[1].receivedAt - created[0].receivedAt >= 0.9, "the first retry waits a second")
            #expect(created[2].receivedAt - created[1].receivedAt >= 1.9, "then two")
            // The account's next event was not sent before its first was delivered.
            let firstSignIn = try #require(signIn.first)
            #expect(firstSignIn.receivedAt >= created[2].receivedAt)
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.text.contains("passkey_webhook_deliveries_total{result=\"retried\"} 4\n"))
        }
    }

    @Test func aDeadEndpointIsAbandonedAndHoldsUpNoOther() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        let env = Self.environment(["WEBHOOK_TIMEOUT_SECONDS": "1", "WEBHOOK_MAX_ATTEMPTS": "2"])
        try await withServer(environment: env) { server, _ in
            let client = server.client
            let (dead, _) = try await Self.register(client, receiver.url("dead", .hang))
            let (moved, _) = try await Self.register(client, receiver.url("moved", .redirect))
            _ = try await Self.register(client, receiver.url("live"), events: ["account.created"])
            for _ in 0..<6 {
                let created = try await client.send(
                    "POST", "/v1/accounts",
                    json: [
                        "email": "user-\(UUID().uuidString.prefix(8))@example.com", "displayName": "Ann",
                        "password": "correct horse battery",
                    ])
                #expect(created.status == 201)
            }
            // Six accounts' events reach the live endpoint while the dead one times out.
            let live = try await receiver.waitFor(6, name: "live")
            #expect(Set(live.map(\.id)).count == 6)
            // The dead and the moved endpoint: two attempts each, then abandoned, and counted.
            try await Self.eventually("both abandoned") {
                let deadListed = try await Self.listed(client, dead)
                let movedListed = try await Self.listed(client, moved)
                return deadListed?["abandoned"] as? Int == 6 && movedListed?["abandoned"] as? Int == 6
            }
            #expect(receiver.received(name: "dead").count == 12)
            // A redirect is never followed.
            #expect(receiver.received(name: "moved").allSatisfy { $0.behaviour == "redirect" })
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.text.contains("passkey_webhook_deliveries_total{result=\"abandoned\"} 12\n"))
            // Abandoned deliveries stay in the events API for replay.
            #expect(try await EventsAPITests.readAll(client, atLeast: 6).count >= 6)
        }
    }

    @Test func aRotatedSecretSignsBesideTheOldOneAndARemovedEndpointGetsNothing() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        try await withServer(environment: Self.environment()) { server, _ in
            let client = server.client
            let (id, old) = try await Self.register(client, receiver.url("erp"))
            let rotated = try await client.send("POST", "/v1/operator/webhooks/\(id)/secret", token: Self.token)
            #expect(rotated.status == 201)
            let new = try #require(rotated.string("secret"))
            #expect(new != old && new.hasPrefix("whsec_"))
            try receiver.setSecret(old, for: "erp")
            _ = try await client.passwordUser()
            let first = try await receiver.waitFor(2, name: "erp")
            #expect(first.allSatisfy { $0.verified == true && $0.signature.split(separator: " ").count == 2 })
            try receiver.setSecret(new, for: "erp")
            _ = try await client.passwordUser()
            let second = try await receiver.waitFor(4, name: "erp")
            #expect(second.allSatisfy { $0.verified == true })
            // Removed: nothing more is sent to it.
            #expect(try await client.send("DELETE", "/v1/operator/webhooks/\(id)", token: Self.token).status == 204)
            #expect(try await client.send("DELETE", "/v1/operator/webhooks/\(id)", token: Self.token).status == 404)
            #expect(
                try await client.send("POST", "/v1/operator/webhooks/\(id)/secret", token: Self.token).status == 404)
            _ = try await client.passwordUser()
            try await Task.sleep(for: .seconds(3))
            #expect(receiver.received(name: "erp").count == 4)
            #expect(try await Self.listed(client, id) == nil)
        }
    }

    @Test func badRegistrationsAreRefusedAndChangeNothing() async throws {
        try await withServer(environment: Self.environment()) { server, _ in
            let client = server.client
            let bad: [[String: Any]] = [
                ["url": "http://hooks.example.com/x"], ["url": "https://u:p@hooks.example.com/x"],
                ["url": "https://hooks.example.com/x", "events": ["sign-in", "no-such-kind"]],
                ["url": "https://hooks.example.com/x", "description": String(repeating: "d", count: 201)],
                ["url": 42], ["events": ["sign-in"]],
            ]
            for body in bad {
                let answer = try await client.send("POST", "/v1/operator/webhooks", json: body, token: Self.token)
                #expect(answer.status == 400, "\(body): \(answer.text)")
                #expect(answer.string("code") == "invalid-request")
            }
            let unauthorized = try await client.send(
                "POST", "/v1/operator/webhooks", json: ["url": "https://hooks.example.com/x"], token: "wrong")
            #expect(unauthorized.status == 401)
            #expect(try await client.send("GET", "/v1/operator/webhooks").status == 401)
            #expect(try await client.send("DELETE", "/v1/operator/webhooks/not-an-id", token: Self.token).status == 404)
            let list = try await client.send("GET", "/v1/operator/webhooks", token: Self.token)
            #expect(list.text == #"{"webhooks":[]}"#)
        }
        // Without DATA_ENCRYPTION_KEY no secret can be stored: 503.
        try await withServer(environment: ["OPERATOR_TOKEN": Self.token]) { server, _ in
            let answer = try await server.client.send(
                "POST", "/v1/operator/webhooks", json: ["url": "https://hooks.example.com/x"], token: Self.token)
            #expect(answer.status == 503)
            #expect(answer.string("code") == "webhooks-unavailable")
        }
        // Without OPERATOR_TOKEN the endpoints do not exist.
        try await withServer { server, _ in
            let answer = try await server.client.send("GET", "/v1/operator/webhooks", token: Self.token)
            #expect(answer.status == 404)
        }
    }
}
