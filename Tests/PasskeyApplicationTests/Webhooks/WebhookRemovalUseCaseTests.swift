import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Removing an endpoint: once; an unknown or removed one is `unknownWebhook` (404).
@Suite struct WebhookRemovalUseCaseTests {
    @Test func anEndpointIsRemovedOnce() async throws {
        let fixture = WebhookFixture()
        let webhook = try await fixture.register().webhook
        try await fixture.removal.execute(webhook.id)
        #expect(try await fixture.list.execute().isEmpty)
        await #expect(throws: WebhookManagementError.unknownWebhook) { try await fixture.removal.execute(webhook.id) }
        await #expect(throws: WebhookManagementError.unknownWebhook) { try await fixture.removal.execute(WebhookID()) }
    }
}
