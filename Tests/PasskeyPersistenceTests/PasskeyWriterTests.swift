import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresPasskeyWriter`, for what it stores, and the read of `PostgresPasskeyCredentialRepository`.
@Suite struct PasskeyWriterTests {
    @Test func renameAndListAreScopedToTheOwner() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: owner.id)
            try await repos.addPasskey(passkey)
            let (byStranger, byOwner) = try await repos.store.transaction { tx async throws(RepositoryError) in
                (
                    try await tx.passkeys.rename(passkey.id, of: stranger.id, to: PasskeyName("Mine now")!),
                    try await tx.passkeys.rename(passkey.id, of: owner.id, to: PasskeyName("Work phone")!)
                )
            }
            #expect(byStranger == nil)
            #expect(byOwner?.name.value == "Work phone")
            #expect(byOwner?.id == passkey.id)
            #expect(try await repos.passkeys.credentials(accountID: owner.id).map(\.name.value) == ["Work phone"])
            #expect(try await repos.passkeys.credentials(accountID: stranger.id).isEmpty)
        }
    }

    @Test func listAnswersTheAccountsPasskeysOldestFirst() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            let now = DomainFixtures.now()
            let newer = DomainFixtures.passkey(accountID: account.id, createdAt: now)
            let older = DomainFixtures.passkey(accountID: account.id, createdAt: now.addingTimeInterval(-60))
            try await repos.addPasskey(newer)
            try await repos.addPasskey(older)
            try await repos.addPasskey(DomainFixtures.passkey(accountID: other.id))
            let listed = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.passkeys.list(account.id)
            }
            #expect(listed == [older, newer])
            #expect(try await repos.passkeys.credentials(accountID: account.id) == [older, newer])
        }
    }

    @Test func deleteAndDeleteAllAreScopedToTheOwner() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id)
            let kept = DomainFixtures.passkey(accountID: account.id)
            let strangers = DomainFixtures.passkey(accountID: stranger.id)
            for credential in [passkey, kept, strangers] { try await repos.addPasskey(credential) }
            let deletions = try await repos.store.transaction { tx async throws(RepositoryError) in
                [
                    try await tx.passkeys.delete(passkey.id, of: stranger.id),
                    try await tx.passkeys.delete(passkey.id, of: account.id),
                    try await tx.passkeys.delete(passkey.id, of: account.id),
                ]
            }
            #expect(deletions == [false, true, false])
            #expect(try await repos.passkeys.credentials(accountID: account.id) == [kept])
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.passkeys.deleteAll(of: account.id)
            }
            #expect(try await repos.passkeys.credentials(accountID: account.id).isEmpty)
            #expect(try await repos.passkeys.credentials(accountID: stranger.id) == [strangers])
        }
    }

    @Test func aCredentialRoundTripsEveryField() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let created = Date(timeIntervalSince1970: 1_795_000_000.123456)
            let passkey = DomainFixtures.passkey(
                id: DomainFixtures.credentialID(Array(repeating: 0xAB, count: 1023)), accountID: account.id,
                signCount: UInt32.max, backupEligible: true, backupState: false, transports: [],
                name: "Yubikey 5 🔑", createdAt: created)
            try await repos.addPasskey(passkey)
            let stored = try #require(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id })
            #expect(stored == passkey)
        }
    }

    /// A credential ID registered to anyone is `credentialExists`, and the transaction that tried
    /// it stores nothing, not even what it wrote before.
    @Test func aDuplicateCredentialIDIsAConflictNamingItsConstraint() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let first = try await repos.passwordAccount()
            let second = try await repos.passwordAccount()
            let id = DomainFixtures.credentialID()
            try await repos.addPasskey(DomainFixtures.passkey(id: id, accountID: first.id))
            await #expect(throws: RepositoryError.conflict(.credentialExists)) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.passkeys.insert(DomainFixtures.passkey(accountID: second.id))
                    try await tx.passkeys.insert(DomainFixtures.passkey(id: id, accountID: second.id))
                }
            }
            #expect(try await repos.passkeys.credentials(accountID: second.id).isEmpty)
            #expect(try await repos.passkeys.credentials(accountID: first.id).map(\.id) == [id])
        }
    }
}
