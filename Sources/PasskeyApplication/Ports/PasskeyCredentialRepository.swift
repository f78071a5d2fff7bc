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

    /// Renames a passkey of this account; nil when the account has no such passkey.
    func renameCredential(id: CredentialID, accountID: AccountID, to name: PasskeyName)
        async throws(RepositoryError) -> PasskeyCredential?

    /// Deletes a passkey unless it is the account's last way in (checked under a lock on the
    /// account) and, in the same transaction, ends every session signed in with it except
    /// `keepingSession` and queues `notice` when the account's address is verified.
    func deleteCredential(id: CredentialID, accountID: AccountID, keepingSession: SessionID, notice: PendingNotice?)
        async throws(RepositoryError) -> PasskeyDeletionOutcome
}

extension PasskeyCredentialRepository {
    /// Deletes a passkey and queues no notice.
    package func deleteCredential(id: CredentialID, accountID: AccountID, keepingSession: SessionID)
        async throws(RepositoryError) -> PasskeyDeletionOutcome
    {
        try await deleteCredential(id: id, accountID: accountID, keepingSession: keepingSession, notice: nil)
    }
}
