import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport

/// The repositories over one pool, for one test database.
struct Repositories {
    let pool: PostgresConnectionPool
    var accounts: PostgresAccountRepository { PostgresAccountRepository(pool: pool) }
    var passkeys: PostgresPasskeyCredentialRepository { PostgresPasskeyCredentialRepository(pool: pool) }
    var challenges: PostgresChallengeRepository { PostgresChallengeRepository(pool: pool) }
    var registrations: PostgresAccountRegistrationRepository { PostgresAccountRegistrationRepository(pool: pool) }
    var sessions: PostgresSessionRepository { PostgresSessionRepository(pool: pool) }
    var recoveryCodes: PostgresRecoveryCodeRepository { PostgresRecoveryCodeRepository(pool: pool) }

    /// A password account with a fresh email; returns the account.
    func passwordAccount(email: String? = nil) async throws -> Account {
        let account = DomainFixtures.account()
        let address = email ?? "user-\(UUID().uuidString.prefix(8))@example.com"
        try await accounts.createPasswordAccount(
            account, email: DomainFixtures.email(address, accountID: account.id),
            password: PasswordCredential(
                accountID: account.id, passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
                createdAt: account.createdAt, updatedAt: account.createdAt))
        return account
    }

    /// Counts rows with a fixed, known query (tests only).
    func count(_ query: PostgresQuery) async throws -> Int {
        try await pool.withConnection { connection async throws(PostgresError) in
            try await connection.query(query).first?.int(0) ?? -1
        }
    }

    /// Gives the account one unused code of its own recovery set (the password-removal precondition).
    func addUserRecoveryCode(accountID: AccountID) async throws {
        let code = StoredRecoveryCode(
            id: UUID(), accountID: accountID, digest: (0..<32).map { _ in UInt8.random(in: 0...255) }, source: .user,
            createdAt: Date(), expiresAt: nil)
        _ = try await recoveryCodes.replaceCodes(accountID: accountID, with: [code])
    }
}
