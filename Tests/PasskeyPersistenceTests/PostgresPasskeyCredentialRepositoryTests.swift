import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresPasskeyCredentialRepository.credentials(accountID:)`: every passkey of the account
/// and no one else's, oldest first, equal times in the credential IDs' byte order, as each was
/// last written. (`PasskeyWriterTests` reads it after renames and deletions; `RowDecodingTests`
/// has the columns.)
@Suite struct PostgresPasskeyCredentialRepositoryTests {
    @Test func anAccountWithoutPasskeysAndAnUnknownAccountHaveNone() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            try await repos.addPasskey(DomainFixtures.passkey(accountID: other.id))
            #expect(try await repos.passkeys.credentials(accountID: account.id).isEmpty)
            #expect(try await repos.passkeys.credentials(accountID: AccountID()).isEmpty)
        }
    }

    /// Three accounts whose passkeys were registered interleaved, some at one instant.
    @Test func eachAccountReadsAllItsOwnPasskeysOldestFirst() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let accounts = [
                try await repos.passwordAccount(), try await repos.passwordAccount(),
                try await repos.passwordAccount(),
            ]
            let start = DomainFixtures.now().addingTimeInterval(-3_600)
            var expected: [AccountID: [PasskeyCredential]] = [:]
            var all: [PasskeyCredential] = []
            for index in 0..<24 {
                let owner = accounts[index % 3].id
                let passkey = DomainFixtures.passkey(
                    accountID: owner, name: "Key \(index)", createdAt: start.addingTimeInterval(Double(index * 10)))
                expected[owner, default: []].append(passkey)
                all.append(passkey)
            }
            // One instant, IDs that order by their bytes: [1] < [1, 0] < [1, 255] < [2].
            let instant = start.addingTimeInterval(1_000)
            let tied = [[2], [1, 255], [1], [1, 0]].map {
                DomainFixtures.passkey(
                    id: DomainFixtures.credentialID($0), accountID: accounts[0].id, createdAt: instant)
            }
            expected[accounts[0].id, default: []] += [tied[2], tied[3], tied[1], tied[0]]
            for passkey in (all + tied).shuffled() { try await repos.addPasskey(passkey) }

            for account in accounts {
                let listed = try await repos.passkeys.credentials(accountID: account.id)
                #expect(listed == expected[account.id], "\(account.id)")
                #expect(listed.allSatisfy { $0.accountID == account.id })
            }
            #expect(try await repos.passkeys.credentials(accountID: accounts[0].id).count == 12)
        }
    }

    /// What a sign-in wrote (counter, backup state, last use) and what a rename wrote are what
    /// the next read answers.
    @Test func aPasskeyReadsAsItWasLastWritten() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 5, backupState: false)
            try await repos.addPasskey(passkey)
            let usedAt = DomainFixtures.now()
            let challenge = PasskeyAuthenticationChallenge(
                challenge: DomainFixtures.challenge(), expiresAt: usedAt.addingTimeInterval(60))
            try await repos.passkeyAuthentications.saveAuthenticationChallenge(challenge)
            let session = DomainFixtures.session(accountID: account.id, method: .passkey)
            let recorded = try await repos.passkeyAuthentications.recordAssertion(
                challengeID: challenge.id, credentialID: passkey.id, expectedSignCount: 5, newSignCount: 6,
                backupState: true, usedAt: usedAt, session: session,
                event: AccountEvent(
                    id: AccountEventID(), accountID: account.id, activity: .signIn(.passkey, credentialID: passkey.id),
                    occurredAt: usedAt, clientAddress: "192.0.2.1", userAgent: nil, sessionID: session.id))
            #expect(recorded == .recorded)
            _ = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.passkeys.rename(passkey.id, of: account.id, to: PasskeyName("Work laptop")!)
            }
            let read = try #require(try await repos.passkeys.credentials(accountID: account.id).first)
            #expect(read.signCount == 6)
            #expect(read.backupState)
            #expect(read.lastUsedAt == usedAt)
            #expect(read.name.value == "Work laptop")
            #expect(read.publicKey == passkey.publicKey && read.createdAt == passkey.createdAt)
        }
    }
}
