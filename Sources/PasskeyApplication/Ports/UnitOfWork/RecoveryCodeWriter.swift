package import Foundation
package import PasskeyDomain

/// A recovery code this transaction locked, by the digest a user presented.
package struct LockedRecoveryCode: Hashable, Sendable {
    package let id: UUID
    package let account: Account
    package let source: RecoveryCodeSource
    /// When it was used (by this transaction's winner of a race), nil while unused.
    package let usedAt: Date?

    package init(id: UUID, account: Account, source: RecoveryCodeSource, usedAt: Date?) {
        self.id = id
        self.account = account
        self.source = source
        self.usedAt = usedAt
    }
}

/// Recovery codes (digests only), inside a transaction.
package protocol RecoveryCodeWriter {
    /// How many codes of the user's own set are unused (operator codes do not count).
    func unusedUserCodes(of accountID: AccountID) async throws(RepositoryError) -> Int

    /// Deletes every code of the account (its set and operator codes).
    func deleteAll(of accountID: AccountID) async throws(RepositoryError)

    /// Deletes the account's unused operator codes.
    func deleteUnusedOperatorCodes(of accountID: AccountID) async throws(RepositoryError)

    func insert(_ codes: [StoredRecoveryCode]) async throws(RepositoryError)

    /// Locks the unexpired code with this digest of the account of `normalizedEmail`, used or not:
    /// a concurrent use waits for the lock and then reads the winner's `usedAt`. Nil when there is
    /// no such code.
    func lock(digest: [UInt8], normalizedEmail: String, now: Date) async throws(RepositoryError) -> LockedRecoveryCode?

    func markUsed(_ id: UUID, at date: Date) async throws(RepositoryError)
}
