import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport

/// The repositories and the unit of work over one pool, for one test database, and the rows
/// tests set up, written through the store as the use cases write them.
struct Repositories {
    let pool: PostgresConnectionPool
    var store: PostgresUnitOfWork { PostgresUnitOfWork(pool: pool) }
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
    var events: PostgresAccountEventRepository { PostgresAccountEventRepository(pool: pool) }
    var rateLimits: PostgresRateLimitRepository { PostgresRateLimitRepository(pool: pool) }

    /// The hash every fixture password account has.
    static let passwordHash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"

    /// A password account with a fresh email (or `email`), its account, address and password
    /// inserted in one transaction; returns the account.
    @discardableResult
    func passwordAccount(email: String? = nil) async throws -> Account {
        let account = DomainFixtures.account()
        let address = DomainFixtures.email(
            email ?? "user-\(UUID().uuidString.prefix(8))@example.com", accountID: account.id)
        try await store.transaction { tx async throws(RepositoryError) in
            try await tx.accounts.insert(account)
            try await tx.accounts.insert(address)
            try await tx.accounts.setPassword(account.id, hash: Self.passwordHash, at: account.createdAt)
        }
        return account
    }

    /// A stored, live password session of `account`, as the bearer check hands it to a use case
    /// (a change re-checks its session inside its transaction, so it must exist).
    func signedIn(_ account: Account) async throws -> ActiveSession {
        let session = DomainFixtures.session(accountID: account.id)
        try await sessions.createSession(session)
        return ActiveSession(session: session, account: account)
    }

    /// Stores `passkey` for its account.
    func addPasskey(_ passkey: PasskeyCredential) async throws {
        try await store.transaction { tx async throws(RepositoryError) in try await tx.passkeys.insert(passkey) }
    }

    /// Gives the account one unused code of its own recovery set (the password-removal precondition).
    func addUserRecoveryCode(accountID: AccountID) async throws {
        let code = StoredRecoveryCode(
            id: UUID(), accountID: accountID, digest: (0..<32).map { _ in UInt8.random(in: 0...255) }, source: .user,
            createdAt: Date(), expiresAt: nil)
        try await store.transaction { tx async throws(RepositoryError) in try await tx.recoveryCodes.insert([code]) }
    }

    /// Counts rows with a fixed, known `SELECT count(*) …` (its one column is named `count`; tests only).
    func count(_ query: PostgresQuery) async throws -> Int {
        try await pool.withConnection { connection async throws(PostgresError) in
            try await connection.query(query).first?.decode(Int.self, column: "count") ?? -1
        }
    }

    /// Whether a statement on this database comes to wait for a lock within `timeout` (polled on
    /// a connection of its own): how a test sees that a lock it holds makes another statement wait.
    func aStatementWaitsForALock(within timeout: Duration = .seconds(10)) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            let waiting = try await count(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'
                """)
            if waiting > 0 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// The rows of a fixed, known query (tests only).
    func rows(_ query: PostgresQuery) async throws -> PostgresResult {
        try await pool.withConnection { connection async throws(PostgresError) in try await connection.query(query) }
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

/// Runs `body` once for each of `inputs`, all at once, and answers every result (in no order).
func concurrently<Input: Sendable, Output: Sendable>(
    _ inputs: [Input], _ body: @escaping @Sendable (Input) async throws -> Output
) async throws -> [Output] {
    try await withThrowingTaskGroup(of: Output.self) { group in
        for input in inputs { group.addTask { try await body(input) } }
        return try await group.reduce(into: [Output]()) { $0.append($1) }
    }
}
