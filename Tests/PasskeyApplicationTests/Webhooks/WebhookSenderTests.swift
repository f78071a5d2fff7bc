import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The sender's settlement of one attempt: delivered on a 2xx; otherwise retried after 1 s,
/// doubling, with up to 50 % jitter, at most an hour, until `maxAttempts`; signed with every live
/// secret the sealer opens; a secret that does not open is a failed attempt, not a crash.
@Suite struct WebhookSenderTests {
    static let webhookID = WebhookID()
    static let sealer = LabelledSecretSealer()

    static func secret(_ first: UInt8) -> WebhookSecret {
        WebhookSecret(bytes: [first] + [UInt8](repeating: 7, count: 31))!
    }

    static func delivery(attempts: Int = 0, secrets: [WebhookSecret] = [secret(1)], position: Int64 = 1)
        throws -> ClaimedWebhookDelivery
    {
        let event = LoggedEvent(
            id: AccountEventID(), accountID: AccountID(), kind: "sign-in", occurredAt: Date(),
            clientAddress: "192.0.2.1", userAgent: "", method: "passkey", credentialID: nil, sessionID: nil,
            actor: nil, stageChange: nil, cursor: EventLogCursor(transaction: 7, position: position))
        return ClaimedWebhookDelivery(
            key: WebhookDeliveryKey(webhookID: webhookID, event: event.cursor),
            url: try #require(WebhookURL("https://hooks.example.com/a")),
            sealedSecrets: try secrets.map { try sealer.seal($0.bytes, context: webhookID.description) },
            event: event, attempts: attempts)
    }

    static func sender(
        _ deliveries: RecordingWebhookDeliveries, _ transport: ScriptedWebhookTransport,
        clock: FixedClock = FixedClock(),
        random: any RandomGenerator = SequentialRandomGenerator(), maxAttempts: Int = 12
    ) -> WebhookSender {
        WebhookSender(
            deliveries: deliveries, transport: transport, format: LabelledWebhookFormat(), sealer: sealer, clock: clock,
            random: random, maxAttempts: maxAttempts, lease: 80)
    }

    @Test func aTwoHundredDeliversWithEveryLiveSecret() async throws {
        let deliveries = RecordingWebhookDeliveries()
        let transport = ScriptedWebhookTransport(.delivered(status: 200))
        let clock = FixedClock()
        let delivery = try Self.delivery(secrets: [Self.secret(2), Self.secret(1)])
        let outcome = try await Self.sender(deliveries, transport, clock: clock).settle(delivery)
        #expect(outcome == .delivered(delivery.key, attempts: 1, status: 200))
        #expect(deliveries.settlements == [.delivered(delivery.key)])
        let post = try #require(transport.posts.first)
        #expect(post.url.value == "https://hooks.example.com/a")
        let headers = Dictionary(uniqueKeysWithValues: post.message.headers.map { ($0.name, $0.value) })
        #expect(headers["webhook-id"] == delivery.event.id.description)
        #expect(headers["webhook-timestamp"] == String(Int(clock.now.timeIntervalSince1970)))
        #expect(headers["secrets"] == "2 1", "the current secret, then the previous one")
    }

    @Test func aFailureIsRetriedAfterOneSecondThenDoublingWithJitter() async throws {
        let clock = FixedClock()
        for attempts in 0..<5 {
            let deliveries = RecordingWebhookDeliveries()
            let delivery = try Self.delivery(attempts: attempts)
            // All-zero random bytes: no jitter.
            let outcome = try await Self.sender(
                deliveries, ScriptedWebhookTransport(.failed(cause: "HTTP 500")), clock: clock, random: ZeroRandom()
            ).settle(delivery)
            let expected = pow(2, Double(attempts))
            #expect(outcome == .retried(delivery.key, attempts: attempts + 1, cause: "HTTP 500", delay: expected))
            #expect(
                deliveries.settlements == [
                    .rescheduled(
                        delivery.key, attempts: attempts + 1, lastError: "HTTP 500",
                        nextAttemptAt: clock.now.addingTimeInterval(expected))
                ])
        }
    }

    @Test func theBackoffAddsAtMostHalfAndNeverPassesAnHour() {
        let backoff = WebhookRetryBackoff()
        #expect(backoff.delay(afterAttempts: 1, unit: 0) == 1)
        #expect(backoff.delay(afterAttempts: 1, unit: 1) == 1.5)
        #expect(backoff.delay(afterAttempts: 3, unit: 0.5) == 5)
        #expect(backoff.delay(afterAttempts: 12, unit: 0) == 2048)
        #expect(backoff.delay(afterAttempts: 12, unit: 1) == 3072)
        #expect(backoff.delay(afterAttempts: 13, unit: 0) == 3600)
        #expect(backoff.delay(afterAttempts: 200, unit: 1) == 3600)
    }

    @Test func theLastAttemptAbandons() async throws {
        let deliveries = RecordingWebhookDeliveries()
        let delivery = try Self.delivery(attempts: 2)
        let outcome = try await Self.sender(
            deliveries, ScriptedWebhookTransport(.failed(cause: "Timeout was reached")), maxAttempts: 3
        ).settle(delivery)
        #expect(outcome == .abandoned(delivery.key, attempts: 3, cause: "Timeout was reached"))
        #expect(deliveries.settlements == [.abandoned(delivery.key, attempts: 3, lastError: "Timeout was reached")])
    }

    @Test func aSecretThatDoesNotOpenIsAFailedAttemptAndNothingIsSent() async throws {
        let deliveries = RecordingWebhookDeliveries()
        let transport = ScriptedWebhookTransport()
        var delivery = try Self.delivery()
        delivery = ClaimedWebhookDelivery(
            key: delivery.key, url: delivery.url,
            sealedSecrets: [try LabelledSecretSealer(name: "another key").seal([1], context: "x")],
            event: delivery.event, attempts: 0)
        let outcome = try await Self.sender(deliveries, transport).settle(delivery)
        guard case .retried(_, 1, let cause, _) = outcome else {
            Issue.record("expected a retry, got \(outcome)")
            return
        }
        #expect(cause.contains("DATA_ENCRYPTION_KEY"))
        #expect(transport.posts.isEmpty)
    }

    @Test func theClaimPassesItsBoundsAndLease() async throws {
        let deliveries = RecordingWebhookDeliveries([try Self.delivery(position: 1), try Self.delivery(position: 2)])
        let sender = Self.sender(deliveries, ScriptedWebhookTransport())
        let busy: Set<WebhookID> = [WebhookID()]
        #expect(try await sender.claim(limit: 1, perEndpoint: 0, excluding: busy).count == 1)
        let claim = try #require(deliveries.claims.withLock { $0.first })
        #expect(claim.limit == 1 && claim.perEndpoint == 1 && claim.lease == 80 && claim.excluding == busy)
    }

    /// Zero bytes: a unit interval of 0.
    struct ZeroRandom: RandomGenerator {
        func bytes(count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
    }
}
