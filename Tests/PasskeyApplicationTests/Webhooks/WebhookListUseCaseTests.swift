import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Listing the endpoints: the ones not removed, in registration order; never a secret.
@Suite struct WebhookListUseCaseTests {
    @Test func theEndpointsNotRemovedInOrder() async throws {
        let fixture = WebhookFixture()
        let first = try await fixture.register(1).webhook
        let second = try await fixture.register(2).webhook
        let third = try await fixture.register(3).webhook
        try await fixture.removal.execute(second.id)
        #expect(try await fixture.list.execute().map(\.id) == [first.id, third.id])
    }

    @Test func anUnavailableDatabaseIsAnswered() async throws {
        let fixture = WebhookFixture()
        fixture.repository.failure.withLock { $0 = .unavailable }
        await #expect(throws: WebhookManagementError.unavailable) { try await fixture.list.execute() }
    }
}
