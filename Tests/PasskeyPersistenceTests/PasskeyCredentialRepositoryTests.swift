import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct PasskeyCredentialRepositoryTests {
    @Test func aCredentialRoundTripsEveryField() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let created = Date(timeIntervalSince1970: 1_795_000_000.123456)
            let passkey = DomainFixtures.passkey(
                id: DomainFixtures.credentialID(Array(repeating: 0xAB, count: 1023)), accountID: account.id,
                signCount: UInt32.max, backupEligible: true, backupState: false, transports: [],
                name: "Yubikey 5 🔑", createdAt: created)
            try await repos.passkeys.addCredential(passkey)
            let stored = try #require(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id })
            #expect(stored == passkey)
        }
    }

    @Test func aDuplicateCredentialIDIsAConflictNamingItsConstraint() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let first = try await repos.passwordAccount()
            let second = try await repos.passwordAccount()
            let id = DomainFixtures.credentialID()
            try await repos.passkeys.addCredential(DomainFixtures.passkey(id: id, accountID: first.id))
            await #expect(throws: RepositoryError.conflict(.credentialExists)) {
                try await repos.passkeys.addCredential(DomainFixtures.passkey(id: id, accountID: second.id))
            }
        }
    }

    @Test func renameAndListAreScopedToTheOwner() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: owner.id)
            try await repos.passkeys.addCredential(passkey)
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
            try await repos.passkeys.addCredential(first)
            try await repos.passkeys.addCredential(second)
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
            try await repos.passkeys.addCredential(passkey)
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
