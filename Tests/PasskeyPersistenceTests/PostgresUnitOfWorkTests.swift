import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresUnitOfWork`: everything the work wrote commits together when it returns, nothing
/// when it throws, and a statement that failed ends the transaction.
@Suite struct PostgresUnitOfWorkTests {
    /// The tables a change of an account can write.
    static let tables: [PostgresQuery] = [
        "SELECT count(*) FROM accounts", "SELECT count(*) FROM account_emails",
        "SELECT count(*) FROM password_credentials", "SELECT count(*) FROM passkey_credentials",
        "SELECT count(*) FROM authentication_sessions", "SELECT count(*) FROM recovery_codes",
        "SELECT count(*) FROM email_codes", "SELECT count(*) FROM mail_outbox", "SELECT count(*) FROM account_events",
    ]

    /// One row for each table of `tables`, written through the writers of `tx`.
    static func writeOneOfEach(_ account: Account, in tx: any StoreTransaction) async throws(RepositoryError) {
        let now = DomainFixtures.now()
        let email = DomainFixtures.email(accountID: account.id)
        try await tx.accounts.insert(account)
        try await tx.accounts.insert(email)
        try await tx.accounts.setPassword(account.id, hash: Repositories.passwordHash, at: now)
        try await tx.passkeys.insert(DomainFixtures.passkey(accountID: account.id))
        try await tx.sessions.insert(DomainFixtures.session(accountID: account.id))
        try await tx.recoveryCodes.insert([
            StoredRecoveryCode(
                id: UUID(), accountID: account.id, digest: Array(repeating: 1, count: 32), source: .user,
                createdAt: now, expiresAt: nil)
        ])
        let draft = EmailCodeDraft(
            id: UUID(), purpose: .verify, digest: Array(repeating: 2, count: 32), createdAt: now,
            expiresAt: now.addingTimeInterval(600))
        try await tx.store(
            EmailCodeMail(
                draft: draft,
                mail: OutgoingMail(
                    id: draft.id, recipient: email.email, subject: "code", body: "123456\n", createdAt: now)),
            of: account.id, sentTo: email.email)
        try await tx.events.record(
            AccountEvent(
                id: AccountEventID(), accountID: account.id, activity: .passwordSet, occurredAt: now,
                clientAddress: "192.0.2.1", userAgent: nil, sessionID: nil))
    }

    @Test func whatTheWorkWroteCommitsTogetherWithItsAnswer() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = DomainFixtures.account()
            let answer = try await repos.store.transaction { tx async throws(RepositoryError) -> String in
                try await Self.writeOneOfEach(account, in: tx)
                return "done"
            }
            #expect(answer == "done")
            for table in Self.tables {
                let rows = try await repos.count(table)
                #expect(rows == 1, "\(table.sql)")
            }
        }
    }

    @Test func aTransactionThatThrowsLeavesNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            await #expect(throws: RepositoryError.conflict(.other("the work refused"))) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await Self.writeOneOfEach(DomainFixtures.account(), in: tx)
                    throw .conflict(.other("the work refused"))
                }
            }
            for table in Self.tables {
                let rows = try await repos.count(table)
                #expect(rows == 0, "\(table.sql)")
            }
        }
    }

    /// A statement that failed aborts the transaction in PostgreSQL: the writers then refuse at
    /// once (a use case that caught the error cannot write on), and nothing of it is stored.
    @Test func aFailedStatementEndsTheTransactionAndNothingOfItStays() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            _ = try await repos.passwordAccount(email: "taken@example.com")
            let account = DomainFixtures.account()
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.accounts.insert(account)
                    let refusal: RepositoryError
                    do throws(RepositoryError) {
                        try await tx.accounts.insert(DomainFixtures.email("Taken@Example.com", accountID: account.id))
                        Issue.record("a taken address was inserted")
                        return
                    } catch {
                        refusal = error
                    }
                    do throws(RepositoryError) {
                        try await tx.passkeys.insert(DomainFixtures.passkey(accountID: account.id))
                        Issue.record("a write after a failed statement was accepted")
                    } catch {
                        guard case .failure(let operation, _) = error else {
                            Issue.record("a write after a failed statement answered \(error)")
                            throw refusal
                        }
                        #expect(operation == "PostgresPasskeyWriter.insert(_:)")
                    }
                    throw refusal
                }
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.count("SELECT count(*) FROM passkey_credentials") == 0)
        }
    }

    /// COMMIT of an aborted transaction rolls it back without an error: a work that caught a
    /// writer's error and returned must not be told its writes were stored.
    @Test func aWorkThatSwallowsAFailedStatementIsNotReportedDone() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            _ = try await repos.passwordAccount(email: "taken@example.com")
            let account = DomainFixtures.account()
            await #expect {
                try await repos.store.transaction { tx async throws(RepositoryError) -> String in
                    try await tx.accounts.insert(account)
                    try? await tx.accounts.insert(DomainFixtures.email("Taken@Example.com", accountID: account.id))
                    return "stored"
                }
            } throws: { error in
                guard case RepositoryError.failure(let operation, _) = error else { return false }
                return operation == "PostgresUnitOfWork.transaction"
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
        }
    }

    @Test func aQueuedMailIsClaimedOnlyOnceItsTransactionCommitted() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mail = OutgoingMail(
                id: UUID(), recipient: EmailAddress("hanako@example.com")!, subject: "Your code", body: "123456\n",
                createdAt: Date().addingTimeInterval(-1))
            try? await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.outbox.enqueue(mail)
                throw .unavailable
            }
            #expect(try await outbox.claimDue(limit: 10, lease: 60).isEmpty)
            try await repos.store.transaction { tx async throws(RepositoryError) in try await tx.outbox.enqueue(mail) }
            let claimed = try await outbox.claimDue(limit: 10, lease: 60)
            #expect(
                claimed.map(\.message) == [
                    MailMessage(id: mail.id, recipient: mail.recipient, subject: "Your code", body: "123456\n")
                ])
        }
    }

    /// `lock` takes the account's row until the transaction ends: `read` does not wait for it (a
    /// read that waited would never answer: the first transaction goes on only after it), and a
    /// second `lock` waits, then reads what the first committed.
    @Test(.timeLimit(.minutes(5)))
    func aLockedAccountIsLockedUntilCommitAndThenReadAsCommitted() async throws {
        try await withTestDatabase(maximumConnections: 4) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "before@example.com")
            try await openConnections(3, of: pool)
            let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
            let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
            let first = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    _ = try await tx.accounts.lock(account.id)
                    lockedSignal.yield()
                    for await _ in release { break }
                    try await tx.accounts.changeEmail(
                        account.id, to: EmailAddress("after@example.com")!, verifiedAt: Date())
                }
            }
            for await _ in locked { break }
            let unlocked = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.read(account.id)
            }
            #expect(unlocked?.email.value == "before@example.com")
            let second = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.accounts.lock(account.id)
                }
            }
            #expect(try await repos.aStatementWaitsForALock())
            releaseSignal.yield()
            try await first.value
            let relocked = try await second.value
            #expect(relocked?.email.value == "after@example.com")
            #expect(relocked?.emailVerified == true)
        }
    }
}
