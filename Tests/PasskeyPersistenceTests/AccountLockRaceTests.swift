import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Synchronization
import Testing

/// (v4) The support desk's lock against a sign-in, each order made to happen deterministically by
/// holding one transaction open: a sign-in that arrives while a lock is being written waits for it
/// and is refused; a lock that arrives while a sign-in is writing its session waits for it and
/// then ends that session. Either way no session of a locked account is left (spec v4, "Support
/// desk"; the end-to-end race is in SupportDeskTests).
@Suite struct AccountLockRaceTests {
    static let lock = AccountLock(lockedAt: Date(), reason: LockReason("race")!)

    /// A one-shot signal between tasks.
    private final class Signal: Sendable {
        private let pair = AsyncStream<Void>.makeStream()
        func send() { pair.continuation.yield() }
        func wait() async { for await _ in pair.stream { return } }
    }

    /// Set once a task has finished.
    private final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    /// The support desk's lock, written (sessions ended) but not committed until `release` is
    /// sent: what a sign-in arriving meanwhile has to wait for.
    private static func lockHeldOpen(_ id: AccountID, _ repos: Repositories) async
        -> (task: Task<Void, any Error>, release: Signal)
    {
        let locked = Signal()
        let release = Signal()
        let task = Task {
            try await repos.store.transaction { tx async throws(RepositoryError) in
                _ = try await tx.accounts.lockAgainstSignIns(id)
                try await tx.accounts.setLock(id, to: Self.lock)
                try await tx.sessions.revoke(.all, of: id, except: nil, at: Date())
                locked.send()
                await release.wait()
            }
        }
        await locked.wait()
        return (task, release)
    }

    /// Waits (at most 10 s) until a statement on this database waits for a row lock: the racing
    /// side has gone as far as it can before the held transaction ends (no fixed sleep, which a
    /// busy machine can outlast before the statement is even sent).
    private static func untilAStatementWaitsForALock(_ pool: PostgresConnectionPool) async throws {
        for _ in 0..<1000 {
            let waiting = try await pool.withConnection { connection async throws(PostgresError) -> Int64 in
                try await connection.query(
                    """
                    SELECT count(*)::int8 AS waiting FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                    """
                ).first?.decode(Int64.self, column: "waiting") ?? 0
            }
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no statement waited for a lock within 10 s")
    }

    private static func isLive(_ id: SessionID, _ repos: Repositories) async throws -> Bool {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            try await tx.sessions.lockLive(id, at: Date())
        }
    }

    @Test func aPasswordSignInDuringALockWaitsForItAndIsRefused() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let (lockTask, release) = await Self.lockHeldOpen(account.id, repos)
            let finished = Flag()
            let session = DomainFixtures.session(accountID: account.id)
            let event = AccountEventMaker().event(
                .signIn(.password, credentialID: nil), accountID: account.id, sessionID: session.id, at: Date(),
                from: .example)
            let signIn = Task {
                defer { finished.set() }
                return try await repos.sessions.createSession(
                    session, event: event, whilePasswordHashIs: Repositories.passwordHash)
            }
            try await Self.untilAStatementWaitsForALock(pool)
            #expect(!finished.isSet, "the sign-in waits for the lock")
            release.send()
            try await lockTask.value
            #expect(try await signIn.value == .accountLocked)
            #expect(try await !Self.isLive(session.id, repos))
        }
    }

    /// The recovery sign-ins' check (`isLockedForSignIn`) against a lock being written: it waits
    /// for the lock and then refuses. It read `... AND locked_at IS NOT NULL FOR KEY SHARE`, which
    /// skips the row (still unlocked in its snapshot) without waiting; the session's insert then
    /// waited on the foreign key only, and its session outlived the lock.
    @Test func aRecoverySignInDuringALockWaitsForItAndIsRefused() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let (lockTask, release) = await Self.lockHeldOpen(account.id, repos)
            let finished = Flag()
            let session = DomainFixtures.session(accountID: account.id, method: .recovery)
            let signIn = Task { () async throws -> Bool in
                defer { finished.set() }
                return try await repos.store.transaction { tx async throws(RepositoryError) -> Bool in
                    guard try await !tx.accounts.isLockedForSignIn(account.id) else { return false }
                    try await tx.sessions.insert(session)
                    return true
                }
            }
            try await Self.untilAStatementWaitsForALock(pool)
            #expect(!finished.isSet, "the sign-in waits for the lock")
            release.send()
            try await lockTask.value
            #expect(try await !signIn.value, "refused: the account is locked")
            #expect(try await !Self.isLive(session.id, repos))
        }
    }

    @Test func aLockDuringASignInWaitsForItAndEndsItsSession() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let session = DomainFixtures.session(accountID: account.id, method: .recovery)
            let written = Signal()
            let release = Signal()
            // A recovery sign-in's transaction: checks the lock, writes its session, not committed yet.
            let signIn = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) -> Bool in
                    guard try await !tx.accounts.isLockedForSignIn(account.id) else { return false }
                    try await tx.sessions.insert(session)
                    written.send()
                    await release.wait()
                    return true
                }
            }
            await written.wait()
            let finished = Flag()
            let lockTask = Task { () async throws -> Int in
                defer { finished.set() }
                return try await repos.store.transaction { tx async throws(RepositoryError) -> Int in
                    _ = try await tx.accounts.lockAgainstSignIns(account.id)
                    try await tx.accounts.setLock(account.id, to: Self.lock)
                    return try await tx.sessions.revoke(.all, of: account.id, except: nil, at: Date())
                }
            }
            try await Self.untilAStatementWaitsForALock(pool)
            #expect(!finished.isSet, "the lock waits for the sign-in")
            release.send()
            #expect(try await signIn.value)
            #expect(try await lockTask.value == 1, "the lock ended the session that committed first")
            #expect(try await !Self.isLive(session.id, repos))
        }
    }
}
