import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `DELETE /v1/sessions/current`: the caller's session ends at once, and only it, with (v4) its
/// `signed-out` event.
@Suite struct SignOutUseCaseTests {
    static let origin = RequestOrigin(clientAddress: "198.51.100.7", userAgent: "Test/1.0")

    @Test func theCurrentSessionIsRevokedNow() async throws {
        let sessions = InMemoryStore()
        let clock = FixedClock()
        let account = sessions.addAccount()
        let current = DomainFixtures.session(accountID: account.id, createdAt: clock.now)
        let other = DomainFixtures.session(accountID: account.id, createdAt: clock.now)
        sessions.add(current)
        sessions.add(other)
        clock.advance(by: 30)
        try await SignOutUseCase(store: sessions, clock: clock)
            .execute(session: ActiveSession(session: current, account: account), origin: Self.origin)
        let revoked = Dictionary(uniqueKeysWithValues: sessions.tables.sessions.values.map { ($0.id, $0.revokedAt) })
        #expect(revoked[current.id] == clock.now)
        #expect(revoked[other.id] == .some(nil))
        let event = try #require(sessions.events.first)
        #expect(sessions.events.count == 1)
        #expect(event.activity == .signedOut)
        #expect(event.kind.rawValue == "signed-out")
        #expect(event.accountID == account.id)
        #expect(event.sessionID == current.id)
        #expect(event.occurredAt == clock.now)
        #expect(event.clientAddress == "198.51.100.7")
    }

    @Test func signingOutASessionEndedMeanwhileIsNoError() async throws {
        let sessions = InMemoryStore()
        let clock = FixedClock()
        let session = ActiveSession.signedIn(at: clock.now)
        sessions.add(session.session)
        sessions.update { $0.sessions[session.session.id]?.revokedAt = clock.now }
        try await SignOutUseCase(store: sessions, clock: clock).execute(session: session, origin: Self.origin)
        #expect(sessions.events.isEmpty, "a session ended meanwhile signs out nothing more")
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let sessions = InMemoryStore()
        let useCase = SignOutUseCase(store: sessions, clock: FixedClock())
        sessions.failNext(.unavailable)
        await #expect(throws: SignOutError.unavailable) {
            try await useCase.execute(session: .signedIn(at: Date()), origin: Self.origin)
        }
        sessions.failNext(.scripted("revoke"))
        await #expect(throws: SignOutError.internalFailure(cause: .scripted("revoke"))) {
            try await useCase.execute(session: .signedIn(at: Date()), origin: Self.origin)
        }
    }
}
