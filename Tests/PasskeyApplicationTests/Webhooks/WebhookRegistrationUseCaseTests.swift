import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Registering an endpoint: what is accepted, what is refused (and then nothing is stored), the
/// secret (32 random bytes, stored only sealed for this endpoint) and the endpoint limit.
@Suite struct WebhookRegistrationUseCaseTests {
    @Test func aNewEndpointGetsASecretThatIsStoredSealedForIt() async throws {
        let fixture = WebhookFixture()
        let (webhook, secret) = try await fixture.registration.execute(
            url: "https://hooks.example.com/passkeys", events: ["stage.changed", "account.deleted", "stage.changed"],
            description: "  CRM sync ")
        #expect(webhook.url.value == "https://hooks.example.com/passkeys")
        #expect(webhook.events == ["account.deleted", "stage.changed"], "sorted, without repeats")
        #expect(webhook.description.value == "CRM sync")
        #expect(webhook.createdAt == fixture.clock.now)
        #expect(secret.text.hasPrefix("whsec_") && secret.bytes.count == 32)
        let stored = try #require(fixture.repository.stored.first)
        #expect(stored.sealedSecret != secret.bytes)
        #expect(fixture.sealer.open(stored.sealedSecret, context: webhook.id.description) == secret.bytes)
        #expect(fixture.sealer.open(stored.sealedSecret, context: WebhookID().description) == nil)
    }

    @Test func noEventsMeansEveryKind() async throws {
        let fixture = WebhookFixture()
        let (webhook, _) = try await fixture.registration.execute(
            url: "http://127.0.0.1:9000/hook", events: [], description: nil)
        #expect(webhook.events.isEmpty)
        #expect(webhook.description.value == "")
    }

    @Test func everyKindOfTheActivityAndTheWebhookOnlyOnesMayBeAskedFor() async throws {
        let fixture = WebhookFixture()
        let kinds = AccountActivity.Kind.allCases.map(\.rawValue)
        let (webhook, _) = try await fixture.registration.execute(
            url: "https://hooks.example.com/all", events: kinds, description: nil)
        #expect(webhook.events == kinds.sorted())
    }

    @Test func badInputIsRefusedAndStoresNothing() async throws {
        let fixture = WebhookFixture()
        let refused: [(String, [String]?, String?)] = [
            ("http://hooks.example.com/x", nil, nil),  // plain HTTP off loopback
            ("https://user:pw@hooks.example.com/x", nil, nil),
            ("https://hooks.example.com@evil.example/x", nil, nil),
            ("ftp://hooks.example.com/x", nil, nil),
            ("https://hooks.example.com/x#part", nil, nil),
            ("https://hooks.example.com/a b", nil, nil),
            ("https://" + String(repeating: "a", count: 2040) + ".example", nil, nil),
            ("not a url", nil, nil),
            ("https://hooks.example.com/x", ["sign-in", "no.such.kind"], nil),
            ("https://hooks.example.com/x", nil, String(repeating: "d", count: 201)),
            ("https://hooks.example.com/x", nil, "line\nbreak"),
        ]
        for (url, events, description) in refused {
            await #expect(throws: WebhookManagementError.self, "\(url) \(events ?? []) \(description ?? "")") {
                try await fixture.registration.execute(url: url, events: events, description: description)
            }
        }
        #expect(fixture.repository.stored.isEmpty)
        #expect(fixture.random.callCount == 0, "nothing was drawn for refused input")
    }

    @Test func loopbackHostsMayUsePlainHTTP() async throws {
        let fixture = WebhookFixture()
        for url in ["http://localhost:8080/h", "http://127.0.0.1/h", "http://127.1.2.3:1/h", "http://[::1]:9/h"] {
            _ = try await fixture.registration.execute(url: url, events: nil, description: nil)
        }
        #expect(fixture.repository.stored.count == 4)
    }

    @Test func withoutADataEncryptionKeyNothingCanBeRegistered() async throws {
        let fixture = WebhookFixture()
        let registration = WebhookRegistrationUseCase(
            webhooks: fixture.repository, sealer: nil, random: fixture.random, clock: fixture.clock)
        await #expect(throws: WebhookManagementError.webhooksUnavailable) {
            try await registration.execute(url: "https://hooks.example.com/x", events: nil, description: nil)
        }
        // Bad input is still told as such first.
        await #expect(
            throws: WebhookManagementError.invalidRequest(
                "events must list event kinds only (docs/webhooks.md names them).")
        ) {
            try await registration.execute(url: "https://hooks.example.com/x", events: ["nope"], description: nil)
        }
        #expect(fixture.repository.stored.isEmpty)
    }

    @Test func atMostAHundredEndpointsExist() async throws {
        let fixture = WebhookFixture()
        for n in 0..<WebhookRegistrationUseCase.maximumEndpoints { try await fixture.register(n) }
        await #expect(throws: WebhookManagementError.self) { try await fixture.register(1000) }
        #expect(fixture.repository.stored.count == 100)
        // A removal makes room.
        try await fixture.removal.execute(fixture.repository.stored[0].webhook.id)
        try await fixture.register(1001)
    }

    @Test func anUnavailableDatabaseIsAnswered() async throws {
        let fixture = WebhookFixture()
        fixture.repository.failure.withLock { $0 = .unavailable }
        await #expect(throws: WebhookManagementError.unavailable) { try await fixture.register() }
    }
}
