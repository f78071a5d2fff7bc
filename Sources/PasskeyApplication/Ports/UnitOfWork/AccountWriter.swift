package import Foundation
package import PasskeyDomain

/// Accounts, their address and their password, inside a transaction.
package protocol AccountWriter {
    /// Locks the account (`FOR NO KEY UPDATE`: concurrent changes of the account wait, sign-ins
    /// inserting sessions do not) and reads it; nil when it does not exist.
    func lock(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot?

    /// Reads the account without locking it (a flow that holds another of its rows locked, which
    /// a lock on the account taken now could deadlock with); nil when it does not exist.
    func read(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot?

    /// (v4) Locks the account against sign-ins too (`FOR UPDATE`: a sign-in writing a session of
    /// it, which holds the row `FOR KEY SHARE`, commits first, and later ones wait for this
    /// transaction) and reads it; nil when it does not exist. For the support desk's lock.
    func lockAgainstSignIns(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot?

    /// (v4) Sets or (nil) clears the support desk's lock.
    func setLock(_ id: AccountID, to lock: AccountLock?) async throws(RepositoryError)

    /// (v4) Whether the support desk locked the account, read `FOR KEY SHARE` by a sign-in before
    /// it writes a session: it waits for a lock being written, and a lock that comes after it waits
    /// for this transaction (and then ends its session).
    func isLockedForSignIn(_ id: AccountID) async throws(RepositoryError) -> Bool

    /// Locks and reads the account whose address is `normalizedEmail`; nil when none has it.
    func lock(normalizedEmail: String) async throws(RepositoryError) -> AccountSnapshot?

    /// The account whose address is `normalizedEmail`, without a lock (failed sign-ins).
    func find(normalizedEmail: String) async throws(RepositoryError) -> AccountID?

    /// Whether an account other than `accountID` has this address.
    func isTaken(_ email: EmailAddress, byOtherThan accountID: AccountID) async throws(RepositoryError) -> Bool

    /// Inserts the account row (its address and password are inserted apart, so that a flow
    /// chooses the order of its conflicts).
    func insert(_ account: Account) async throws(RepositoryError)

    /// Inserts the account's address; `.conflict(.emailTaken)` when another account has it.
    func insert(_ email: AccountEmail) async throws(RepositoryError)

    /// Marks the address verified at `date` (a no-op when it is verified already).
    func markEmailVerified(_ id: AccountID, at date: Date) async throws(RepositoryError)

    /// Replaces the address with `email`, verified at `date`; `.conflict(.emailTaken)` when another
    /// account has it.
    func changeEmail(_ id: AccountID, to email: EmailAddress, verifiedAt date: Date) async throws(RepositoryError)

    /// Inserts or replaces the password hash.
    func setPassword(_ id: AccountID, hash: String, at date: Date) async throws(RepositoryError)

    /// Deletes the password; false when there was none.
    @discardableResult
    func deletePassword(_ id: AccountID) async throws(RepositoryError) -> Bool

    /// Locks everything a sign-in of the account could be writing (its passkeys, recovery codes
    /// and password, in the order sign-ins lock them, then the account), reads the account and
    /// deletes it with everything it owns; nil when it did not exist. The answer is what the
    /// account was, for the notice its deletion mails (the outbox has no foreign key).
    func delete(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot?
}
