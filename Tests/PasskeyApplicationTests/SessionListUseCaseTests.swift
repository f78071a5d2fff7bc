import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `GET /v1/account/sessions`: the account's live sessions, newest first.
@Suite struct SessionListUseCaseTests {
    @Test func theAccountsLiveSessionsAreListedNewestFirst() async throws {
        let sessions = InMemoryStore()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        let older = DomainFixtures.session(accountID: account.id, createdAt: clock.now.addingTimeInterval(-120))
        let newer = DomainFixtures.session(
            accountID: account.id, method: .passkey, createdAt: clock.now.addingTimeInterval(-60))
        let revoked = DomainFixtures.session(accountID: account.id, createdAt: clock.now)
        let expired = DomainFixtures.session(
            accountID: account.id, createdAt: clock.now.addingTimeInterval(-7200), lifetime: 3600)
        let another = DomainFixtures.session(accountID: AccountID(), createdAt: clock.now)
        for session in [older, newer, revoked, expired, another] { sessions.add(session) }
        sessions.update { $0.sessions[revoked.id]?.revokedAt = clock.now }

        let listed = try await SessionListUseCase(sessions: sessions, clock: clock)
            .execute(session: ActiveSession(session: newer, account: account))
        #expect(listed == [newer, older])
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let sessions = InMemoryStore()
        let useCase = SessionListUseCase(sessions: sessions, clock: FixedClock())
        sessions.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
        sessions.failNext(.scripted("activeSessions"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("activeSessions"))) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
    }
}
