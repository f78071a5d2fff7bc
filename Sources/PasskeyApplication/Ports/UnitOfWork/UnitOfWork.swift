/// The application's transactions (docs/architecture.md, "The unit of work"): a use case locks,
/// reads, decides in Swift and writes, all through the one `StoreTransaction` it is handed, and
/// everything it wrote commits together when `work` returns, or not at all when it throws. A
/// change, its account event and the mail it causes are one unit.
///
/// `work` may run again only if the adapter says so (it does not: a failed transaction is an
/// error for the caller); it must not suspend on anything but the transaction (no password
/// hashing, no mail transport), so a transaction holds its locks for round trips only. After a
/// writer throws, the transaction is over: rethrow, never carry on with it.
package protocol UnitOfWork: Sendable {
    func transaction<T: Sendable>(
        _ work: @escaping @Sendable (any StoreTransaction) async throws(RepositoryError) -> T
    ) async throws(RepositoryError) -> T
}

/// One open transaction, seen per aggregate. Valid only inside the `work` it was handed to.
package protocol StoreTransaction: AnyObject {
    var accounts: any AccountWriter { get }
    var passkeys: any PasskeyWriter { get }
    var sessions: any SessionWriter { get }
    var recoveryCodes: any RecoveryCodeWriter { get }
    var emailCodes: any EmailCodeWriter { get }
    var accountRegistrations: any AccountRegistrationWriter { get }
    var outbox: any MailOutboxWriter { get }
    /// The one place account events are written (and, with them, what each event causes).
    var events: any AccountEventWriter { get }
    /// (v4) The token signing keys.
    var signingKeys: any SigningKeyWriter { get }

    /// Lets this transaction commit without waiting for its WAL to reach the disk (PostgreSQL's
    /// `synchronous_commit = off` for it alone): a crash right after may lose it whole, never a
    /// part of it. For outcomes whose only writes are bookkeeping of a failure (a failed sign-in's
    /// event, a wrong code's try) or a mail the user can ask for again: the flush took 0.4 to
    /// 1.5 ms that only an existing account's answer waited for, so the time told whether the
    /// address had an account (security round 4, finding 11).
    func relaxDurability() async throws(RepositoryError)
}
