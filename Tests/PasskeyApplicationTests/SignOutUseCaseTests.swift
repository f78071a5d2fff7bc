import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `DELETE /v1/sessions/current`: the caller's session ends at once, and only it.
@Suite struct SignOutUseCaseTests {
    @Test func theCurrentSessionIsRevokedNow() async throws {
        let sessions = InMemoryStore()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        let current = DomainFixtures.session(accountID: account.id, createdAt: clock.now)
        let other = DomainFixtures.session(accountID: account.id, createdAt: clock.now)
        sessions.add(current)
        sessions.add(other)
        clock.advance(by: 30)
        try await SignOutUseCase(store: sessions, clock: clock)
            .execute(session: ActiveSession(session: current, account: account))
        let revoked = Dictionary(uniqueKeysWithValues: sessions.tables.sessions.values.map { ($0.id, $0.revokedAt) })
        #expect(revoked[current.id] == clock.now)
        #expect(revoked[other.id] == .some(nil))
    }

    @Test func signingOutASessionEndedMeanwhileIsNoError() async throws {
        let sessions = InMemoryStore()
        let clock = FixedClock()
        let session = ActiveSession.signedIn(at: clock.now)
        sessions.add(session.session)
        sessions.update { $0.sessions[session.session.id]?.revokedAt = clock.now }
        try await SignOutUseCase(store: sessions, clock: clock).execute(session: session)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let sessions = InMemoryStore()
        let useCase = SignOutUseCase(store: sessions, clock: FixedClock())
        sessions.failNext(.unavailable)
        await #expect(throws: SignOutError.unavailable) { try await useCase.execute(session: .signedIn(at: Date())) }
        sessions.failNext(.scripted("revoke"))
        await #expect(throws: SignOutError.internalFailure(cause: .scripted("revoke"))) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
    }
}
