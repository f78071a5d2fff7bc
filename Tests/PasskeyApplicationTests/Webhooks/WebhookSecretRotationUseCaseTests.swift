import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Rotating a secret: a new one, sealed for the endpoint; the old one stays live for 24 hours.
@Suite struct WebhookSecretRotationUseCaseTests {
    @Test func theNewSecretSignsAndTheOldOneStaysLiveForADay() async throws {
        let fixture = WebhookFixture()
        let (webhook, old) = try await fixture.register()
        let new = try await fixture.rotation.execute(webhook.id)
        #expect(new != old)
        let stored = try #require(fixture.repository.stored.first)
        #expect(fixture.sealer.open(stored.sealedSecret, context: webhook.id.description) == new.bytes)
        let previous = try #require(stored.previous)
        #expect(fixture.sealer.open(previous.sealed, context: webhook.id.description) == old.bytes)
        #expect(previous.until == fixture.clock.now.addingTimeInterval(24 * 3600))
    }

    @Test func anUnknownEndpointIsRefused() async throws {
        let fixture = WebhookFixture()
        await #expect(throws: WebhookManagementError.unknownWebhook) { try await fixture.rotation.execute(WebhookID()) }
    }

    @Test func withoutADataEncryptionKeyNoSecretIsMade() async throws {
        let fixture = WebhookFixture()
        let webhook = try await fixture.register().webhook
        let rotation = WebhookSecretRotationUseCase(
            webhooks: fixture.repository, sealer: nil, random: fixture.random, clock: fixture.clock)
        await #expect(throws: WebhookManagementError.webhooksUnavailable) { try await rotation.execute(webhook.id) }
        #expect(fixture.repository.stored.first?.previous == nil)
    }
}
