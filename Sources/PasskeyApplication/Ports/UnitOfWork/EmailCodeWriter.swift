package import Foundation
package import PasskeyDomain

/// A live mailed code this transaction locked.
package struct LockedEmailCode: Hashable, Sendable {
    package let id: UUID
    package let digest: [UInt8]
    /// The address it was sent to (for `change`, the new address).
    package let email: String
    package let failedTries: Int

    package init(id: UUID, digest: [UInt8], email: String, failedTries: Int) {
        self.id = id
        self.digest = digest
        self.email = email
        self.failedTries = failedTries
    }
}

/// Mailed codes (digests only), inside a transaction.
package protocol EmailCodeWriter {
    /// Serialises every issue to one recipient (its normalized address), on every instance, until
    /// the transaction ends, so the sending limit holds under concurrency.
    func lockRecipient(_ normalizedEmail: String) async throws(RepositoryError)

    /// How many codes went to the recipient after `since`, and when the oldest of them did.
    func sends(to normalizedEmail: String, since: Date) async throws(RepositoryError) -> (count: Int, oldest: Date?)

    /// How many codes the account had sent after `since` (to any address), and when the oldest
    /// of them was.
    func sends(of accountID: AccountID, since: Date) async throws(RepositoryError) -> (count: Int, oldest: Date?)

    /// Voids the account's unused codes of `purpose`.
    func voidUnused(_ purpose: EmailCodePurpose, of accountID: AccountID, at date: Date) async throws(RepositoryError)

    /// Stores a code sent to `recipient`.
    func insert(_ draft: EmailCodeDraft, of accountID: AccountID, sentTo recipient: EmailAddress)
        async throws(RepositoryError)

    /// Locks the account's newest live code of `purpose` (a concurrent use waits, then finds it used).
    func lockLive(_ purpose: EmailCodePurpose, of accountID: AccountID, now: Date)
        async throws(RepositoryError) -> LockedEmailCode?

    /// The account's code of `purpose` used most recently after `since`, if any (a double submit's
    /// loser looks for the use that won).
    func latestUsed(_ purpose: EmailCodePurpose, of accountID: AccountID, since: Date)
        async throws(RepositoryError) -> LockedEmailCode?

    /// One more wrong try; with `void`, the code stops working.
    func countWrongTry(_ id: UUID, void: Bool, at date: Date) async throws(RepositoryError)

    func markUsed(_ id: UUID, at date: Date) async throws(RepositoryError)
}
