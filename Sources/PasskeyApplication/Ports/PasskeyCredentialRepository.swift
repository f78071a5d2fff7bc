internal import Foundation
package import PasskeyDomain

/// What deleting a passkey came to.
package enum PasskeyDeletionOutcome: Hashable, Sendable {
    case deleted
    case notFound
    /// It is the account's last way in (no password, no other passkey).
    case lastCredential
}

/// Registered passkeys, as their owner manages them (adding one is `PasskeyRegistrationRepository`'s).
package protocol PasskeyCredentialRepository: Sendable {
    /// The account's passkeys, oldest first.
    func credentials(accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential]

    /// Renames a passkey of this account and writes `event` (`passkey.renamed`) in the same
    /// statement; nil when the account has no such passkey (then no event).
    func renameCredential(id: CredentialID, accountID: AccountID, to name: PasskeyName, event: AccountEvent)
        async throws(RepositoryError) -> PasskeyCredential?

    /// Deletes a passkey unless it is the account's last way in (checked under a lock on the
    /// account) and, in the same transaction, ends every session signed in with it except
    /// `keepingSession` and queues `notice` when the account's address is verified, and writes
    /// `event` (`passkey.deleted`) when deleted.
    func deleteCredential(
        id: CredentialID, accountID: AccountID, keepingSession: SessionID, notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> PasskeyDeletionOutcome
}
