import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `Authorization: Bearer …`: a live session's token, and nothing else, resolves to its session.
@Suite struct BearerAuthenticationUseCaseTests {
    private struct Fixture {
        let sessions = InMemoryStore()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        var useCase: BearerAuthenticationUseCase {
            BearerAuthenticationUseCase(sessions: sessions, tokens: SequentialTokenGenerator(), clock: clock)
        }

        init() { sessions.addAccount(account) }

        /// A stored session whose token is `token`.
        func session(token: String, lifetime: TimeInterval = 3600) async throws -> AuthenticationSession {
            let session = AuthenticationSession(
                accountID: account.id, tokenDigest: SequentialTokenGenerator.digest(of: token), method: .passkey,
                createdAt: clock.now, expiresAt: clock.now.addingTimeInterval(lifetime))
            try await sessions.createSession(session)
            return session
        }
    }

    @Test func aLiveSessionsTokenResolvesToItsSessionAndAccount() async throws {
        let f = Fixture()
        let session = try await f.session(token: "token-1")
        _ = try await f.session(token: "token-2")
        let active = try await f.useCase.execute(token: "token-1")
        #expect(active == ActiveSession(session: session, account: f.account))
    }

    @Test(arguments: [nil, "", "not-one-of-ours", "token-404"])
    func aMissingMalformedOrUnknownTokenIsUnauthorized(token: String?) async throws {
        let f = Fixture()
        _ = try await f.session(token: "token-1")
        await #expect(throws: BearerAuthenticationError.unauthorized) { try await f.useCase.execute(token: token) }
    }

    @Test func aTokenThatCannotBeOursIsRefusedWithoutAskingTheRepository() async throws {
        let f = Fixture()
        f.sessions.failNext(.unavailable)  // would surface had the repository been asked
        await #expect(throws: BearerAuthenticationError.unauthorized) { try await f.useCase.execute(token: "Basic x") }
    }

    @Test func aRevokedTokenIsUnauthorized() async throws {
        let f = Fixture()
        let session = try await f.session(token: "token-1")
        f.sessions.update { $0.sessions[session.id]?.revokedAt = f.clock.now }
        await #expect(throws: BearerAuthenticationError.unauthorized) { try await f.useCase.execute(token: "token-1") }
    }

    @Test func anExpiredTokenIsUnauthorized() async throws {
        let f = Fixture()
        _ = try await f.session(token: "token-1", lifetime: 60)
        f.clock.advance(by: 59)
        _ = try await f.useCase.execute(token: "token-1")
        f.clock.advance(by: 1)
        await #expect(throws: BearerAuthenticationError.unauthorized) { try await f.useCase.execute(token: "token-1") }
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        f.sessions.failNext(.unavailable)
        await #expect(throws: BearerAuthenticationError.unavailable) { try await f.useCase.execute(token: "token-1") }
        f.sessions.failNext(.scripted("activeSession"))
        await #expect(throws: BearerAuthenticationError.internalFailure(cause: .scripted("activeSession"))) {
            try await f.useCase.execute(token: "token-1")
        }
    }
}
