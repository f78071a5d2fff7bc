import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Synchronization
import Testing

/// `PostgresTransaction`, the `StoreTransaction` of `PostgresUnitOfWork`: its writers are views of
/// one open transaction, an answer of "nothing there" leaves it going, and once one of its calls
/// threw (a refused statement, or a row it could not read) every later call is refused at once,
/// without a statement sent (`PostgresUnitOfWorkTests` has the rollback and one writer's refusal).
@Suite struct PostgresTransactionTests {
    /// Counts the statements a pool sends (its `statementObserver`).
    final class StatementCounter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    typealias Call = () async throws(RepositoryError) -> Void

    /// One call of each writer of `tx`, by the operation its refusal names.
    static func everyWriter(_ tx: any StoreTransaction, _ account: Account) -> KeyValuePairs<String, Call> {
        let now = Date()
        let event = AccountEvent(
            id: AccountEventID(), accountID: account.id, activity: .passwordSet, occurredAt: now,
            clientAddress: "192.0.2.1", userAgent: nil, sessionID: nil)
        let mail = OutgoingMail(
            id: UUID(), recipient: EmailAddress("refused@example.com")!, subject: "Notice", body: "Hello\n",
            createdAt: now)
        return [
            "PostgresAccountWriter.lock(_:)": { () async throws(RepositoryError) in
                _ = try await tx.accounts.lock(account.id)
            },
            "PostgresAccountWriter.read(_:)": { () async throws(RepositoryError) in
                _ = try await tx.accounts.read(account.id)
            },
            "PostgresPasskeyWriter.list(_:)": { () async throws(RepositoryError) in
                _ = try await tx.passkeys.list(account.id)
            },
            "PostgresSessionWriter.lockLive(_:at:)": { () async throws(RepositoryError) in
                _ = try await tx.sessions.lockLive(SessionID(), at: now)
            },
            "PostgresRecoveryCodeWriter.unusedUserCodes(of:)": { () async throws(RepositoryError) in
                _ = try await tx.recoveryCodes.unusedUserCodes(of: account.id)
            },
            "PostgresEmailCodeWriter.sends(to:since:)": { () async throws(RepositoryError) in
                _ = try await tx.emailCodes.sends(to: "a@example.com", since: now)
            },
            "PostgresAccountRegistrationWriter.complete(_:at:)": { () async throws(RepositoryError) in
                _ = try await tx.accountRegistrations.complete(RegistrationID(), at: now)
            },
            "PostgresMailOutboxWriter.enqueue(_:)": { () async throws(RepositoryError) in
                try await tx.outbox.enqueue(mail)
            },
            "PostgresAccountEventWriter.record(_:)": { () async throws(RepositoryError) in
                try await tx.events.record(event)
            },
        ]
    }

    /// After a refused statement (PostgreSQL has aborted the transaction), each writer answers
    /// the adapter's own refusal, naming itself, and sends nothing: PostgreSQL's refusal would
    /// carry SQLSTATE 25P02 and cost a round trip each. Nothing of the transaction stays.
    @Test func afterAFailedStatementEveryWriterRefusesWithoutAStatement() async throws {
        try await withTestDatabase { database, _ in
            let statements = StatementCounter()
            let pool = PostgresConnectionPool(
                configuration: .init(
                    conninfo: database.conninfo, maximumConnections: 1, statementObserver: { statements.increment() }))
            defer { pool.close() }
            let repos = Repositories(pool: pool)
            let existing = try await repos.passwordAccount()
            let account = DomainFixtures.account()
            await #expect(throws: RepositoryError.conflict(.other("accounts_pkey"))) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.accounts.insert(account)
                    let refusal: RepositoryError
                    do throws(RepositoryError) {
                        try await tx.accounts.insert(existing)
                        Issue.record("an account was inserted twice")
                        return
                    } catch {
                        refusal = error
                    }
                    let sent = statements.value
                    let calls = Self.everyWriter(tx, account)
                    #expect(calls.count == 9)
                    for (operation, call) in calls {
                        do throws(RepositoryError) {
                            try await call()
                            Issue.record("\(operation) was accepted after a failed statement")
                        } catch {
                            guard case .failure(let named, let underlying) = error,
                                let cause = underlying as? PostgresError
                            else {
                                Issue.record("\(operation) answered \(error)")
                                continue
                            }
                            #expect(named == operation)
                            #expect(cause.kind == .statement, "\(operation)")
                            #expect(cause.sqlState == nil, "\(operation): refused by PostgreSQL, not by the adapter")
                        }
                    }
                    #expect(statements.value == sent, "a refused call sent a statement")
                    throw refusal
                }
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts WHERE id = \(account.id.uuid)") == 0)
        }
    }

    /// "Nothing there" is an answer, not a failure: the transaction goes on and commits.
    @Test func answersOfNothingThereLeaveTheTransactionGoing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let stranger = AccountID()
            let account = DomainFixtures.account()
            let answers = try await repos.store.transaction { tx async throws(RepositoryError) -> [Bool] in
                let locked = try await tx.accounts.lock(stranger)
                let read = try await tx.accounts.read(stranger)
                let byEmail = try await tx.accounts.lock(normalizedEmail: "nobody@example.com")
                let passwordDeleted = try await tx.accounts.deletePassword(stranger)
                let passkeyDeleted = try await tx.passkeys.delete(DomainFixtures.credentialID(), of: stranger)
                let live = try await tx.sessions.lockLive(SessionID(), at: Date())
                let completed = try await tx.accountRegistrations.complete(RegistrationID(), at: Date())
                try await tx.accounts.insert(account)
                return [
                    locked == nil, read == nil, byEmail == nil, !passwordDeleted, !passkeyDeleted, !live, !completed,
                ]
            }
            #expect(answers == Array(repeating: true, count: 7))
            #expect(try await repos.count("SELECT count(*) FROM accounts WHERE id = \(account.id.uuid)") == 1)
        }
    }

    /// A writer that throws ends the transaction also when PostgreSQL had nothing to refuse (a row
    /// it could not read back): later calls are refused, and a work that swallowed the error and
    /// returned is not reported done.
    @Test func aRowAWriterCannotReadEndsTheTransactionToo() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let broken = try await repos.passwordAccount()
            _ = try await repos.rows(
                "UPDATE account_emails SET email = 'not an address' WHERE account_id = \(broken.id.uuid)")
            let account = DomainFixtures.account()
            await #expect {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    do throws(RepositoryError) {
                        _ = try await tx.accounts.read(broken.id)
                        Issue.record("an account with an unreadable address was read")
                    } catch {
                        guard case .failure(let operation, let underlying) = error else {
                            Issue.record("the read answered \(error)")
                            return
                        }
                        #expect(operation == "PostgresAccountWriter.read(_:)")
                        #expect((underlying as? PostgresError)?.kind == .decoding)
                    }
                    do throws(RepositoryError) {
                        try await tx.accounts.insert(account)
                        Issue.record("a write after a failed read was accepted")
                    } catch {
                        guard case .failure(let operation, _) = error else {
                            Issue.record("the write answered \(error)")
                            return
                        }
                        #expect(operation == "PostgresAccountWriter.insert(_:)")
                    }
                }
            } throws: { error in
                guard case RepositoryError.failure(let operation, _) = error else { return false }
                return operation == "PostgresUnitOfWork.transaction"
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts WHERE id = \(account.id.uuid)") == 0)
        }
    }

    /// Every writer of a transaction works in it: what one wrote, another reads at once, while a
    /// reader outside sees none of it until the commit.
    @Test func theWritersShareOneTransactionThatNobodyElseSeesBeforeItCommits() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = DomainFixtures.account()
            let email = DomainFixtures.email(accountID: account.id)
            let passkey = DomainFixtures.passkey(accountID: account.id)
            let outside = repos.passkeys
            let (locked, listed, seenOutside) = try await repos.store.transaction {
                tx async throws(RepositoryError) -> (AccountSnapshot?, [PasskeyCredential], [PasskeyCredential]) in
                try await tx.accounts.insert(account)
                try await tx.accounts.insert(email)
                try await tx.passkeys.insert(passkey)
                return (
                    try await tx.accounts.lock(account.id), try await tx.passkeys.list(account.id),
                    try await outside.credentials(accountID: account.id)
                )
            }
            #expect(locked?.account == account)
            #expect(locked?.email == email.email)
            #expect(locked?.hasPassword == false)
            #expect(listed == [passkey])
            #expect(seenOutside.isEmpty)
            #expect(try await outside.credentials(accountID: account.id) == [passkey])
        }
    }

    /// `relaxDurability` turns `synchronous_commit` off for its own transaction only (security
    /// round 4, finding 11); what it wrote still commits.
    @Test func relaxDurabilityAppliesToItsTransactionAlone() async throws {
        try await withTestDatabase(maximumConnections: 1) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let settings = try await repos.store.transaction { tx async throws(RepositoryError) -> [String] in
                guard let transaction = tx as? PostgresTransaction else { throw .unavailable }
                let before = try await transaction.synchronousCommit()
                try await tx.relaxDurability()
                let after = try await transaction.synchronousCommit()
                try await tx.events.record(
                    AccountEvent(
                        id: AccountEventID(), accountID: account.id, activity: .passwordSet,
                        occurredAt: DomainFixtures.now(), clientAddress: "192.0.2.1", userAgent: nil, sessionID: nil))
                return [before, after]
            }
            #expect(settings == ["on", "off"])
            let next = try await repos.store.transaction { tx async throws(RepositoryError) -> String in
                guard let transaction = tx as? PostgresTransaction else { throw .unavailable }
                return try await transaction.synchronousCommit()
            }
            #expect(next == "on", "the next transaction on the same connection")
            #expect(try await repos.count("SELECT count(*) FROM account_events WHERE kind = 'password.set'") == 1)
        }
    }
}
