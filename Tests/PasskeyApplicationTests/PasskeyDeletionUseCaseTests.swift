import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Deleting a passkey (with the `RecentSession` the route kind proved): not found, and never the
/// account's last way in.
@Suite struct PasskeyDeletionUseCaseTests {
    private struct Fixture {
        let passkeys = InMemoryPasskeyCredentialRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        let useCase: PasskeyDeletionUseCase

        init() {
            useCase = PasskeyDeletionUseCase(passkeys: passkeys, clock: FixedClock())
        }

        func session() -> RecentSession { .signedIn(account, method: .passkey) }

        /// `count` passkeys of the account, stored.
        func passkeys(_ count: Int, of accountID: AccountID? = nil) async throws -> [PasskeyCredential] {
            var stored: [PasskeyCredential] = []
            for _ in 0..<count {
                let passkey = DomainFixtures.passkey(accountID: accountID ?? account.id)
                passkeys.seed(passkey)
                stored.append(passkey)
            }
            return stored
        }
    }

    @Test func aPasskeyIsDeletedKeepingTheCallersSession() async throws {
        let f = Fixture()
        let stored = try await f.passkeys(2)
        let session = f.session()
        try await f.useCase.execute(session: session, credentialID: stored[0].id, origin: .example)
        #expect(f.passkeys.all == [stored[1]])
        #expect(f.passkeys.keptSessions == [session.session.id])
    }

    @Test func theOnlyPasskeyOfAnAccountWithAPasswordMayGo() async throws {
        let f = Fixture()
        let stored = try await f.passkeys(1)
        f.passkeys.setHasPassword(true, for: f.account.id)
        try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        #expect(f.passkeys.all.isEmpty)
    }

    @Test func theLastWayInIsRefused() async throws {
        let f = Fixture()
        let stored = try await f.passkeys(1)
        await #expect(throws: AccountManagementError.lastCredential) {
            try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        }
        #expect(f.passkeys.all == stored)
    }

    /// (A malformed ID in the path is the route's 404: `PathParameters.require`.)
    @Test func anUnknownOrOtherAccountsPasskeyIsNotFound() async throws {
        let f = Fixture()
        let others = try await f.passkeys(2, of: AccountID())
        _ = try await f.passkeys(2)
        for credentialID in [others[0].id, DomainFixtures.credentialID()] {
            await #expect(throws: AccountManagementError.notFound) {
                try await f.useCase.execute(session: f.session(), credentialID: credentialID, origin: .example)
            }
        }
        #expect(f.passkeys.all.count == 4)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        let stored = try await f.passkeys(2)
        f.passkeys.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        }
        f.passkeys.failNext(.scripted("deleteCredential"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("deleteCredential"))) {
            try await f.useCase.execute(session: f.session(), credentialID: stored[0].id, origin: .example)
        }
        #expect(f.passkeys.all == stored)
    }
}
