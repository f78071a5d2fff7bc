import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Renaming a passkey: only one of the signed-in account's own.
@Suite struct PasskeyRenameUseCaseTests {
    private struct Fixture {
        let passkeys = InMemoryStore()
        let account: Account
        var useCase: PasskeyRenameUseCase { PasskeyRenameUseCase(store: passkeys) }

        init() {
            account = passkeys.addAccount()
        }
        var session: ActiveSession { .signedIn(account, at: Date(), in: passkeys) }

        func rename(_ id: CredentialID, to name: String) async throws(AccountManagementError) -> PasskeyCredential {
            try await useCase.execute(session: session, credentialID: id, name: PasskeyName(name)!)
        }
    }

    @Test func aPasskeyOfTheAccountIsRenamedAndReturned() async throws {
        let f = Fixture()
        let passkey = DomainFixtures.passkey(accountID: f.account.id, name: "iCloud Keychain")
        f.passkeys.add(passkey)
        let renamed = try await f.rename(passkey.id, to: "Personal iPhone")
        #expect(renamed.id == passkey.id)
        #expect(renamed.name.value == "Personal iPhone")
        #expect(f.passkeys.tables.passkeys == [renamed])
        #expect(f.passkeys.events.map(\.activity) == [.passkeyRenamed(credentialID: passkey.id)])
    }

    @Test func anUnknownOrOtherAccountsPasskeyIsNotFoundAndKeepsItsName() async throws {
        let f = Fixture()
        let other = DomainFixtures.passkey(accountID: AccountID(), name: "YubiKey")
        f.passkeys.add(other)
        for id in [other.id, DomainFixtures.credentialID()] {
            await #expect(throws: AccountManagementError.notFound) { try await f.rename(id, to: "Mine now") }
        }
        #expect(f.passkeys.tables.passkeys == [other])
        #expect(f.passkeys.events.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        f.passkeys.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.rename(DomainFixtures.credentialID(), to: "x")
        }
        f.passkeys.failNext(.scripted("rename"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("rename"))) {
            try await f.rename(DomainFixtures.credentialID(), to: "x")
        }
    }
}
