package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// The unit of work in memory, for unit tests of use cases: each transaction works on a copy of
/// the tables and, when `work` returns, replaces them with it; when it throws, the copy is dropped
/// (a rollback). Transactions run one at a time, in the order they started (concurrency between
/// them is tested on PostgreSQL). `failNext` makes the next writer call throw, and its transaction roll back.
package final class InMemoryStore: UnitOfWork, Sendable {
    private struct State {
        var tables = InMemoryTables()
        var failNext: RepositoryError?
        var callsBeforeFailure = 0
        var committed = 0
        var relaxedCommits = 0
        /// A transaction is running; the others wait in line (one at a time, like serialisable ones).
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// A change another request commits just before the next transaction starts.
        var race: (@Sendable (inout InMemoryTables) -> Void)?
    }

    private let state = Mutex(State())

    package init() {}

    /// The committed tables.
    package var tables: InMemoryTables { state.withLock { $0.tables } }

    /// Changes the committed tables directly (test set-up).
    package func update(_ change: (inout InMemoryTables) -> Void) {
        state.withLock { change(&$0.tables) }
    }

    /// How many transactions committed.
    package var committedTransactions: Int { state.withLock { $0.committed } }
    /// How many of them committed with `relaxDurability()` (no wait for the disk).
    package var relaxedCommits: Int { state.withLock { $0.relaxedCommits } }

    /// `change` commits, as a concurrent request would, right before the next transaction starts
    /// (after everything the use case read before it).
    package func raceNextTransaction(_ change: @escaping @Sendable (inout InMemoryTables) -> Void) {
        state.withLock { $0.race = change }
    }

    /// The next call (after `afterCalls` others go through) throws `error`; a writer's error rolls
    /// its whole transaction back.
    package func failNext(_ error: RepositoryError, afterCalls: Int = 0) {
        state.withLock {
            $0.failNext = error
            $0.callsBeforeFailure = afterCalls
        }
    }

    package func transaction<T: Sendable>(
        _ work: @escaping @Sendable (any StoreTransaction) async throws(RepositoryError) -> T
    ) async throws(RepositoryError) -> T {
        await enter()
        defer { leave() }
        state.withLock { state in
            state.race?(&state.tables)
            state.race = nil
        }
        let transaction = InMemoryTransaction(tables: tables, store: self)
        let value = try await work(transaction)
        state.withLock {
            $0.tables = transaction.tables
            $0.committed += 1
            if transaction.relaxed { $0.relaxedCommits += 1 }
        }
        return value
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// A read of the committed tables, after the scripted failure if one is due.
    func read<T>(_ body: (InMemoryTables) throws(RepositoryError) -> T) throws(RepositoryError) -> T {
        try checkFailure()
        return try body(tables)
    }

    /// A change of the committed tables outside a transaction (one statement of a port), after
    /// the scripted failure if one is due.
    func write<T>(_ body: (inout InMemoryTables) throws(RepositoryError) -> T) throws(RepositoryError) -> T {
        try checkFailure()
        return try state.withLock { (state) throws(RepositoryError) -> T in try body(&state.tables) }
    }

    /// Throws the scripted failure, once.
    func checkFailure() throws(RepositoryError) {
        if let error = state.withLock({ state -> RepositoryError? in
            guard state.failNext != nil else { return nil }
            if state.callsBeforeFailure > 0 {
                state.callsBeforeFailure -= 1
                return nil
            }
            defer { state.failNext = nil }
            return state.failNext
        }) {
            throw error
        }
    }

    // MARK: - Shortcuts for tests

    /// The events of committed transactions, in order.
    package var events: [AccountEvent] { tables.events }

    /// The mails committed transactions queued, in order.
    package var outbox: [OutgoingMail] { tables.outbox }

    /// Adds an account with its address (and a password hash, when given).
    @discardableResult
    package func addAccount(
        _ account: Account = DomainFixtures.account(), email: String? = nil, verified: Bool = false,
        language: MailLanguage = .english, passwordHash: String? = nil
    ) -> Account {
        update { tables in
            tables.accounts[account.id] = account
            let address = EmailAddress(email ?? "user-\(account.id.uuid.uuidString.prefix(8))@example.com")!
            tables.emails[account.id] = AccountEmail(
                accountID: account.id, email: address, language: language,
                verifiedAt: verified ? account.createdAt : nil)
            if let passwordHash {
                tables.passwords[account.id] = PasswordCredential(
                    accountID: account.id, passwordHash: passwordHash, createdAt: account.createdAt,
                    updatedAt: account.createdAt)
            }
        }
        return account
    }

    /// The stored password hash of an account.
    package func passwordHash(of id: AccountID) -> String? { tables.passwords[id]?.passwordHash }

    /// The language of an account's mails.
    package func language(of id: AccountID) -> MailLanguage? { tables.emails[id]?.language }

    /// Adds rows as a committed transaction would have left them.
    package func add(_ passkey: PasskeyCredential) { update { $0.passkeys.append(passkey) } }
    package func add(_ session: AuthenticationSession) { update { $0.sessions[session.id] = session } }
    package func add(_ code: StoredRecoveryCode, usedAt: Date? = nil) {
        update { $0.recoveryCodes.append(.init(code: code, usedAt: usedAt)) }
    }
    package func add(_ registration: PasskeyAccountRegistration) {
        update { $0.accountRegistrations[registration.id] = .init(registration: registration) }
    }

    /// A session of `account` as a route kind would have found it, stored so that the
    /// transactions that check it see it.
    /// It lives the default 30 days (`PasskeyPolicy.sessionLifetime`).
    package func signIn(_ account: Account, method: AuthenticationMethod = .password, at date: Date)
        -> AuthenticationSession
    {
        let session = DomainFixtures.session(
            accountID: account.id, method: method, createdAt: date, lifetime: PasskeyPolicy().sessionLifetime)
        add(session)
        return session
    }
}

/// One in-memory transaction: a copy of the tables and the writers over it.
final class InMemoryTransaction: StoreTransaction {
    var tables: InMemoryTables
    let store: InMemoryStore

    init(tables: InMemoryTables, store: InMemoryStore) {
        self.tables = tables
        self.store = store
    }

    var accounts: any AccountWriter { InMemoryAccountWriter(transaction: self) }
    var passkeys: any PasskeyWriter { InMemoryPasskeyWriter(transaction: self) }
    var sessions: any SessionWriter { InMemorySessionWriter(transaction: self) }
    var recoveryCodes: any RecoveryCodeWriter { InMemoryRecoveryCodeWriter(transaction: self) }
    var emailCodes: any EmailCodeWriter { InMemoryEmailCodeWriter(transaction: self) }
    var accountRegistrations: any AccountRegistrationWriter { InMemoryAccountRegistrationWriter(transaction: self) }
    var outbox: any MailOutboxWriter { InMemoryOutboxWriter(transaction: self) }
    var events: any AccountEventWriter { InMemoryEventWriter(transaction: self) }
    var signingKeys: any SigningKeyWriter { InMemorySigningKeyWriter(transaction: self) }

    /// Whether the use case let this transaction commit without waiting for the disk.
    var relaxed = false

    func relaxDurability() async throws(RepositoryError) {
        try change { _ throws(RepositoryError) in relaxed = true }
    }

    /// Runs a writer's change on the copy, after the scripted failure if one is due.
    func change<T>(_ body: (inout InMemoryTables) throws(RepositoryError) -> T) throws(RepositoryError) -> T {
        try store.checkFailure()
        return try body(&tables)
    }
}
