import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

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

    @Test func aTakenEmailIsAConflictAndWritesNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            _ = try await repos.passwordAccount(email: "hanako@example.com")
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                _ = try await repos.passwordAccount(email: "HANAKO@example.com")
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.count("SELECT count(*) FROM password_credentials") == 1)
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
            try await repos.passkeyRegistrations.addCredential(passkey, limit: 50)
            let summary = try #require(try await repos.accounts.accountSummary(id: account.id))
            #expect(summary.email.value == "Summary@Example.com")
            #expect(summary.hasPassword)
            #expect(summary.passkeys.map(\.id) == [passkey.id])
            #expect(summary.passkeys.first?.transports == ["internal", "hybrid"])
            #expect(try await repos.accounts.accountSummary(id: AccountID()) == nil)
        }
    }

    @Test func passwordRemovalNeedsAPasskeyThatHasSignedIn() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            #expect(
                try await repos.accounts.removePassword(accountID: account.id, keepingSession: SessionID())
                    == .noPasskeyUsedYet)
            try await repos.passkeyRegistrations.addCredential(DomainFixtures.passkey(accountID: account.id), limit: 50)
            #expect(
                try await repos.accounts.removePassword(accountID: account.id, keepingSession: SessionID())
                    == .noPasskeyUsedYet)
            try await repos.passkeyRegistrations.addCredential(
                DomainFixtures.passkey(accountID: account.id, lastUsedAt: Date()), limit: 50)
            #expect(
                try await repos.accounts.removePassword(accountID: account.id, keepingSession: SessionID())
                    == .noRecoverySetUp)
            try await repos.addUserRecoveryCode(accountID: account.id)
            #expect(
                try await repos.accounts.removePassword(accountID: account.id, keepingSession: SessionID()) == .removed)
            #expect(
                try await repos.accounts.removePassword(accountID: account.id, keepingSession: SessionID())
                    == .noPassword)
            #expect(try await repos.accounts.accountSummary(id: account.id)?.hasPassword == false)
        }
    }

    @Test func importIsAllOrNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            func item(_ email: String) -> ImportedPasswordAccount {
                let account = DomainFixtures.account()
                return ImportedPasswordAccount(
                    account: account, email: DomainFixtures.email(email, accountID: account.id),
                    password: PasswordCredential(
                        accountID: account.id, passwordHash: "$2b$12$abcdefghijklmnopqrstuv", createdAt: Date(),
                        updatedAt: Date()))
            }
            let progress = ProgressRecorder()
            try await repos.accounts.importPasswordAccounts(
                [item("a@example.com"), item("b@example.com")], progress: { progress.record($0) })
            #expect(progress.values.last == 2)
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                try await repos.accounts.importPasswordAccounts(
                    [item("c@example.com"), item("A@example.com")], progress: { _ in })
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 2)
        }
    }
}

/// Collects progress callbacks from another thread.
final class ProgressRecorder: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var recorded: [Int] = []
    func record(_ value: Int) { lock.withLock { recorded.append(value) } }
    var values: [Int] { lock.withLock { recorded } }
}
