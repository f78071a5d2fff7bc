import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `DELETE /v1/sessions/current`: the caller's session ends at once, and only it.
@Suite struct SignOutUseCaseTests {
    @Test func theCurrentSessionIsRevokedNow() async throws {
        let sessions = InMemorySessionRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        let current = DomainFixtures.session(accountID: account.id, createdAt: clock.now)
        let other = DomainFixtures.session(accountID: account.id, createdAt: clock.now)
        try await sessions.createSession(current)
        try await sessions.createSession(other)
        clock.advance(by: 30)
        try await SignOutUseCase(sessions: sessions, clock: clock)
            .execute(session: ActiveSession(session: current, account: account))
        let revoked = Dictionary(uniqueKeysWithValues: sessions.all.map { ($0.id, $0.revokedAt) })
        #expect(revoked[current.id] == clock.now)
        #expect(revoked[other.id] == .some(nil))
    }

    @Test func signingOutASessionEndedMeanwhileIsNoError() async throws {
        let sessions = InMemorySessionRepository()
        let clock = FixedClock()
        let session = ActiveSession.signedIn(at: clock.now)
        try await sessions.createSession(session.session)
        _ = try await sessions.revokeSession(id: session.session.id, at: clock.now)
        try await SignOutUseCase(sessions: sessions, clock: clock).execute(session: session)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let sessions = InMemorySessionRepository()
        let useCase = SignOutUseCase(sessions: sessions, clock: FixedClock())
        sessions.failNext(.unavailable)
        await #expect(throws: SignOutError.unavailable) { try await useCase.execute(session: .signedIn(at: Date())) }
        sessions.failNext(.scripted("revokeSession"))
        await #expect(throws: SignOutError.internalFailure(cause: .scripted("revokeSession"))) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
    }
}
