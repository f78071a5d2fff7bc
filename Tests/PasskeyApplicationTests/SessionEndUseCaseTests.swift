import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Ending sessions: one of the account's own (the caller's included), or every other one.
@Suite struct SessionEndUseCaseTests {
    static let origin = RequestOrigin(clientAddress: "198.51.100.7", userAgent: "Test/1.0")

    private struct Fixture {
        let sessions = InMemoryStore()
        let clock = FixedClock()
        let account: Account
        var useCase: SessionEndUseCase { SessionEndUseCase(store: sessions, clock: clock) }

        init() { account = sessions.addAccount() }

        /// A stored live session of `accountID` (the fixture's account by default).
        func session(of accountID: AccountID? = nil) async throws -> AuthenticationSession {
            let session = DomainFixtures.session(accountID: accountID ?? account.id, createdAt: clock.now)
            sessions.add(session)
            return session
        }

        func caller(_ session: AuthenticationSession) -> ActiveSession {
            ActiveSession(session: session, account: account)
        }

        /// The IDs of the sessions still live now.
        var live: Set<SessionID> {
            Set(sessions.tables.sessions.values.filter { $0.revokedAt == nil && $0.expiresAt > clock.now }.map(\.id))
        }
    }

    @Test func anotherSessionOfTheAccountEnds() async throws {
        let f = Fixture()
        let mine = try await f.session()
        let other = try await f.session()
        try await f.useCase.endOne(other.id, session: f.caller(mine), origin: Self.origin)
        #expect(f.live == [mine.id])
        // sessions.ended (one), by the caller's session, from where the request came.
        let event = try #require(f.sessions.events.first)
        #expect(f.sessions.events.count == 1)
        #expect(event.activity == .sessionsEnded(.one))
        #expect(event.accountID == f.account.id)
        #expect(event.sessionID == mine.id)
        #expect(event.clientAddress == "198.51.100.7")
        #expect(event.userAgent == "Test/1.0")
    }

    @Test func theCallersOwnSessionMayEnd() async throws {
        let f = Fixture()
        let mine = try await f.session()
        try await f.useCase.endOne(mine.id, session: f.caller(mine), origin: Self.origin)
        #expect(f.live.isEmpty)
    }

    @Test func anUnknownEndedMissingOrOtherAccountsSessionIsNotFound() async throws {
        let f = Fixture()
        let mine = try await f.session()
        let ended = try await f.session()
        f.sessions.update { $0.sessions[ended.id]?.revokedAt = f.clock.now }
        let theirs = try await f.session(of: AccountID())
        for id in [SessionID(), ended.id, theirs.id, nil] {
            await #expect(throws: AccountManagementError.notFound) {
                try await f.useCase.endOne(id, session: f.caller(mine), origin: Self.origin)
            }
        }
        #expect(f.live == [mine.id, theirs.id])
        #expect(f.sessions.events.isEmpty)  // nothing ended, nothing recorded
    }

    @Test func everyOtherSessionOfTheAccountEndsButNoOneElses() async throws {
        let f = Fixture()
        let mine = try await f.session()
        _ = try await f.session()
        _ = try await f.session()
        let theirs = try await f.session(of: AccountID())
        try await f.useCase.endOthers(session: f.caller(mine), origin: Self.origin)
        #expect(f.live == [mine.id, theirs.id])
        #expect(f.sessions.events.map(\.activity) == [.sessionsEnded(.others)])
        #expect(f.sessions.events.first?.sessionID == mine.id)
    }

    @Test func endingOthersWhenThereAreNoneRecordsNothing() async throws {
        let f = Fixture()
        let mine = try await f.session()
        try await f.useCase.endOthers(session: f.caller(mine), origin: Self.origin)
        #expect(f.sessions.events.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        let mine = try await f.session()
        f.sessions.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.endOne(mine.id, session: f.caller(mine), origin: Self.origin)
        }
        f.sessions.failNext(.scripted("revoke"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("revoke"))) {
            try await f.useCase.endOne(mine.id, session: f.caller(mine), origin: Self.origin)
        }
        f.sessions.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.endOthers(session: f.caller(mine), origin: Self.origin)
        }
        f.sessions.failNext(.scripted("revoke"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("revoke"))) {
            try await f.useCase.endOthers(session: f.caller(mine), origin: Self.origin)
        }
        #expect(f.live == [mine.id])
        #expect(f.sessions.events.isEmpty)
    }
}
