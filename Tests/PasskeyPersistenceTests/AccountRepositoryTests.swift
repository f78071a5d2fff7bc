import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The reads of `PostgresAccountRepository` and its one write outside the unit of work (the
/// re-hash of a password that verified).
@Suite struct AccountRepositoryTests {
    @Test func passwordAccountIsFoundByNormalisedEmail() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "Taro.Yamada@Example.COM")
            let found = try await repos.accounts.passwordAccount(normalizedEmail: "taro.yamada@example.com")
            #expect(found?.account == account)
            #expect(found?.credential.passwordHash.hasPrefix("$argon2id$") == true)
            #expect(try await repos.accounts.passwordAccount(normalizedEmail: "nobody@example.com") == nil)
        }
    }

    @Test func passwordHashIsReplacedOnlyFromTheExpectedValue() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "rehash@example.com")
            let old = try #require(try await repos.accounts.passwordAccount(normalizedEmail: "rehash@example.com"))
            try await repos.accounts.updatePasswordHash(
                accountID: account.id, from: "$2b$stale", to: "$argon2id$ignored", at: Date())
            #expect(
                try await repos.accounts.passwordAccount(normalizedEmail: "rehash@example.com")?.credential.passwordHash
                    == old.credential.passwordHash)
            try await repos.accounts.updatePasswordHash(
                accountID: account.id, from: old.credential.passwordHash, to: "$argon2id$new", at: Date())
            #expect(
                try await repos.accounts.passwordAccount(normalizedEmail: "rehash@example.com")?.credential.passwordHash
                    == "$argon2id$new")
        }
    }

    @Test func summaryListsEmailPasswordAndPasskeys() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "Summary@Example.com")
            let passkey = DomainFixtures.passkey(accountID: account.id)
            try await repos.addPasskey(passkey)
            try await repos.addUserRecoveryCode(accountID: account.id)
            let summary = try #require(try await repos.accounts.accountSummary(id: account.id))
            #expect(summary.email.value == "Summary@Example.com")
            #expect(summary.hasPassword)
            #expect(!summary.emailVerified)
            #expect(summary.passkeys.map(\.id) == [passkey.id])
            #expect(summary.passkeys.first?.transports == ["internal", "hybrid"])
            #expect(summary.recoveryCodesRemaining == 1)
            #expect(try await repos.accounts.accountSummary(id: AccountID()) == nil)
        }
    }
}
