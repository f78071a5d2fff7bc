import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct PasskeyCredentialRepositoryTests {
    @Test func renameAndListAreScopedToTheOwner() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: owner.id)
            try await repos.passkeyRegistrations.addCredential(passkey, limit: 50)
            #expect(
                try await repos.passkeys.renameCredential(
                    id: passkey.id, accountID: stranger.id, to: PasskeyName("Mine now")!) == nil)
            let renamed = try await repos.passkeys.renameCredential(
                id: passkey.id, accountID: owner.id, to: PasskeyName("Work phone")!)
            #expect(renamed?.name.value == "Work phone")
            #expect(try await repos.passkeys.credentials(accountID: owner.id).map(\.name.value) == ["Work phone"])
            #expect(try await repos.passkeys.credentials(accountID: stranger.id).isEmpty)
        }
    }

    @Test func theLastWayInCannotBeDeleted() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let first = DomainFixtures.passkey(accountID: account.id, lastUsedAt: Date())
            let second = DomainFixtures.passkey(accountID: account.id)
            try await repos.passkeyRegistrations.addCredential(first, limit: 50)
            try await repos.passkeyRegistrations.addCredential(second, limit: 50)
            try await repos.addUserRecoveryCode(accountID: account.id)
            #expect(
                try await repos.accounts.removePassword(accountID: account.id, keepingSession: SessionID()) == .removed)
            #expect(
                try await repos.passkeys.deleteCredential(
                    id: DomainFixtures.credentialID(), accountID: account.id, keepingSession: SessionID())
                    == .notFound)
            #expect(
                try await repos.passkeys.deleteCredential(
                    id: second.id, accountID: account.id, keepingSession: SessionID()) == .deleted)
            #expect(
                try await repos.passkeys.deleteCredential(
                    id: first.id, accountID: account.id, keepingSession: SessionID()) == .lastCredential)
            #expect(try await repos.passkeys.credentials(accountID: account.id).map(\.id) == [first.id])
        }
    }

    @Test func withAPasswordTheOnlyPasskeyCanBeDeleted() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id)
            try await repos.passkeyRegistrations.addCredential(passkey, limit: 50)
            let stranger = try await repos.passwordAccount()
            #expect(
                try await repos.passkeys.deleteCredential(
                    id: passkey.id, accountID: stranger.id, keepingSession: SessionID()) == .notFound)
            #expect(
                try await repos.passkeys.deleteCredential(
                    id: passkey.id, accountID: account.id, keepingSession: SessionID()) == .deleted)
        }
    }
}
