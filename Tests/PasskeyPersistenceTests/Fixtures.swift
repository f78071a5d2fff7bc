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
    var passkeyRegistrations: PostgresPasskeyRegistrationRepository {
        PostgresPasskeyRegistrationRepository(pool: pool)
    }
    var passkeyAuthentications: PostgresPasskeyAuthenticationRepository {
        PostgresPasskeyAuthenticationRepository(pool: pool)
    }
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

    /// Counts rows with a fixed, known `SELECT count(*) …` (its one column is named `count`; tests only).
    func count(_ query: PostgresQuery) async throws -> Int {
        try await pool.withConnection { connection async throws(PostgresError) in
            try await connection.query(query).first?.decode(Int.self, column: "count") ?? -1
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

/// Opens `count` connections of the pool first, so a race that follows is between connections,
/// not connects.
func openConnections(_ count: Int, of pool: PostgresConnectionPool) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<count {
            group.addTask {
                _ = try await pool.withConnection { c async throws(PostgresError) in
                    try await c.query("SELECT pg_sleep(0.05)")
                }
            }
        }
        try await group.waitForAll()
    }
}

/// Runs `body` `count` times at once and counts how many returned true.
func race(_ count: Int, _ body: @escaping @Sendable () async throws -> Bool) async throws -> Int {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        for _ in 0..<count { group.addTask(operation: body) }
        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}
