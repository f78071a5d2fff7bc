import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Ending sessions: one of the account's own (the caller's included), or every other one.
@Suite struct SessionEndUseCaseTests {
    private struct Fixture {
        let sessions = InMemorySessionRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        var useCase: SessionEndUseCase { SessionEndUseCase(sessions: sessions, clock: clock) }

        /// A stored live session of `accountID` (the fixture's account by default).
        func session(of accountID: AccountID? = nil) async throws -> AuthenticationSession {
            let session = DomainFixtures.session(accountID: accountID ?? account.id, createdAt: clock.now)
            try await sessions.createSession(session)
            return session
        }

        func caller(_ session: AuthenticationSession) -> ActiveSession {
            ActiveSession(session: session, account: account)
        }

        /// The IDs of the sessions still live now.
        var live: Set<SessionID> {
            Set(sessions.all.filter { $0.revokedAt == nil && $0.expiresAt > clock.now }.map(\.id))
        }
    }

    @Test func anotherSessionOfTheAccountEnds() async throws {
        let f = Fixture()
        let mine = try await f.session()
        let other = try await f.session()
        try await f.useCase.endOne(other.id, session: f.caller(mine))
        #expect(f.live == [mine.id])
    }

    @Test func theCallersOwnSessionMayEnd() async throws {
        let f = Fixture()
        let mine = try await f.session()
        try await f.useCase.endOne(mine.id, session: f.caller(mine))
        #expect(f.live.isEmpty)
    }

    @Test func anUnknownEndedMissingOrOtherAccountsSessionIsNotFound() async throws {
        let f = Fixture()
        let mine = try await f.session()
        let ended = try await f.session()
        _ = try await f.sessions.revokeSession(id: ended.id, at: f.clock.now)
        let theirs = try await f.session(of: AccountID())
        for id in [SessionID(), ended.id, theirs.id, nil] {
            await #expect(throws: AccountManagementError.notFound) {
                try await f.useCase.endOne(id, session: f.caller(mine))
            }
        }
        #expect(f.live == [mine.id, theirs.id])
    }

    @Test func everyOtherSessionOfTheAccountEndsButNoOneElses() async throws {
        let f = Fixture()
        let mine = try await f.session()
        _ = try await f.session()
        _ = try await f.session()
        let theirs = try await f.session(of: AccountID())
        try await f.useCase.endOthers(session: f.caller(mine))
        #expect(f.live == [mine.id, theirs.id])
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        let mine = try await f.session()
        f.sessions.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.endOne(mine.id, session: f.caller(mine))
        }
        f.sessions.failNext(.scripted("revokeSession"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("revokeSession"))) {
            try await f.useCase.endOne(mine.id, session: f.caller(mine))
        }
        f.sessions.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.endOthers(session: f.caller(mine))
        }
        f.sessions.failNext(.scripted("revokeOtherSessions"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("revokeOtherSessions"))) {
            try await f.useCase.endOthers(session: f.caller(mine))
        }
        #expect(f.live == [mine.id])
    }
}
