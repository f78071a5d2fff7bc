import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Deleting a passkey (with the `RecentSession` the route kind proved): not found, never the
/// account's last way in, and the sessions it signed in end with it (except the caller's).
@Suite struct PasskeyDeletionUseCaseTests {
    private struct Fixture {
        let store = InMemoryStore()
        let clock = FixedClock()
        let account: Account
        let useCase: PasskeyDeletionUseCase

        init(password: Bool = false) {
            account = store.addAccount(passwordHash: password ? "h" : nil)
            useCase = PasskeyDeletionUseCase(store: store, clock: clock)
        }

        func session() -> RecentSession { .signedIn(account, method: .passkey, in: store) }

        /// `count` passkeys of the account, stored.
        func passkeys(_ count: Int, of accountID: AccountID? = nil) -> [PasskeyCredential] {
            (0..<count).map { index in
                let passkey = DomainFixtures.passkey(
                    accountID: accountID ?? account.id, createdAt: clock.now.addingTimeInterval(Double(index)))
                store.add(passkey)
                return passkey
            }
        }

        var stored: [PasskeyCredential] { store.tables.passkeys }
    }

    @Test func aPasskeyIsDeletedWithItsEventAndTheSessionsItSignedInEndExceptTheCallers() async throws {
        let f = Fixture()
        let stored = f.passkeys(2)
        let session = f.session()
        f.store.add(session.session)
        var signedInWithIt = DomainFixtures.session(accountID: f.account.id, method: .passkey, createdAt: f.clock.now)
        signedInWithIt = AuthenticationSession(
            id: signedInWithIt.id, accountID: f.account.id, tokenDigest: signedInWithIt.tokenDigest, method: .passkey,
            credentialID: stored[0].id, createdAt: f.clock.now, expiresAt: signedInWithIt.expiresAt)
        f.store.add(signedInWithIt)
        let passwordSession = f.store.signIn(f.account, at: f.clock.now)
        try await f.useCase.execute(session: session, credentialID: stored[0].id, origin: .example)
        #expect(f.stored == [stored[1]])
        let sessions = f.store.tables.sessions
        #expect(sessions[signedInWithIt.id]?.revokedAt == f.clock.now)
        #expect(sessions[session.session.id]?.revokedAt == nil)
        #expect(sessions[passwordSession.id]?.revokedAt == nil)
        #expect(f.store.events.map(\.activity) == [.passkeyDeleted(credentialID: stored[0].id)])
        #expect(f.store.events.first?.sessionID == session.session.id)
    }

    @Test func theOnlyPasskeyOfAnAccountWithAPasswordMayGo() async throws {
        let f = Fixture(password: true)
        let stored = f.passkeys(1)
        try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        #expect(f.stored.isEmpty)
    }

    @Test func theLastWayInIsRefusedAndNothingIsRecorded() async throws {
        let f = Fixture()
        let stored = f.passkeys(1)
        await #expect(throws: AccountManagementError.lastCredential) {
            try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        }
        #expect(f.stored == stored)
        #expect(f.store.events.isEmpty)
    }

    /// (A malformed ID in the path is the route's 404: `PathParameters.require`.)
    @Test func anUnknownOrOtherAccountsPasskeyIsNotFound() async throws {
        let f = Fixture()
        let other = f.store.addAccount()
        let others = f.passkeys(2, of: other.id)
        _ = f.passkeys(2)
        for credentialID in [others[0].id, DomainFixtures.credentialID()] {
            await #expect(throws: AccountManagementError.notFound) {
                try await f.useCase.execute(session: f.session(), credentialID: credentialID, origin: .example)
            }
        }
        #expect(f.stored.count == 4)
    }

    @Test func anAccountDeletedMeanwhileIsNotFound() async throws {
        let f = Fixture()
        let stored = f.passkeys(2)
        f.store.update { $0.accounts[f.account.id] = nil }
        await #expect(throws: AccountManagementError.notFound) {
            try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        }
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        let stored = f.passkeys(2)
        f.store.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        }
        f.store.failNext(.scripted("lock"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("lock"))) {
            try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        }
        #expect(f.stored == stored)
    }
}
