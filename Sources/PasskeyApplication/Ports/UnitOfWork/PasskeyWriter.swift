package import PasskeyDomain

/// An account's passkeys, inside a transaction (after the account was locked).
package protocol PasskeyWriter {
    /// The account's passkeys, oldest first.
    func list(_ accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential]

    /// Inserts a verified passkey; `.conflict(.credentialExists)` when its ID is registered (to anyone).
    func insert(_ credential: PasskeyCredential) async throws(RepositoryError)

    /// Renames a passkey of the account; nil when it has no such passkey.
    func rename(_ id: CredentialID, of accountID: AccountID, to name: PasskeyName)
        async throws(RepositoryError) -> PasskeyCredential?

    /// Deletes a passkey of the account; false when it has no such passkey.
    @discardableResult
    func delete(_ id: CredentialID, of accountID: AccountID) async throws(RepositoryError) -> Bool

    /// Deletes every passkey of the account (a take-back).
    func deleteAll(of accountID: AccountID) async throws(RepositoryError)
}
