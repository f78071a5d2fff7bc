package import Foundation
package import PasskeyDomain

/// An account with what `GET /v1/account` shows about it.
package struct AccountSummary: Hashable, Sendable {
    package let account: Account
    package let email: EmailAddress
    package let hasPassword: Bool
    package let passkeys: [PasskeyCredential]
    /// Unused codes of the user's own recovery set (operator codes do not count).
    package let recoveryCodesRemaining: Int
    /// (v3) Whether the address was proven with a mailed code.
    package let emailVerified: Bool

    package init(
        account: Account, email: EmailAddress, hasPassword: Bool, passkeys: [PasskeyCredential],
        recoveryCodesRemaining: Int = 0, emailVerified: Bool = false
    ) {
        self.account = account
        self.email = email
        self.hasPassword = hasPassword
        self.passkeys = passkeys
        self.recoveryCodesRemaining = recoveryCodesRemaining
        self.emailVerified = emailVerified
    }
}

/// A password account found by email, for sign-in.
package struct PasswordAccount: Hashable, Sendable {
    package let account: Account
    package let credential: PasswordCredential

    package init(account: Account, credential: PasswordCredential) {
        self.account = account
        self.credential = credential
    }
}

/// One user of an existing system being moved in (`passkey-server import-passwords`).
package struct ImportedPasswordAccount: Hashable, Sendable {
    package let account: Account
    package let email: AccountEmail
    package let password: PasswordCredential
    /// (v3) Its `account.created` event (method `import`), written in the statement that inserts it.
    package let event: AccountEvent

    package init(account: Account, email: AccountEmail, password: PasswordCredential, event: AccountEvent) {
        self.account = account
        self.email = email
        self.password = password
        self.event = event
    }
}

/// What removing the password of an account came to.
package enum PasswordRemovalOutcome: Hashable, Sendable {
    case removed
    /// The account has no password.
    case noPassword
    /// No passkey of the account has signed in yet, so removing the password could lock the user out.
    case noPasskeyUsedYet
    /// The account has no unused code of its own recovery set (operator codes do not count).
    case noRecoverySetUp
}

/// Accounts, their email and their password credential.
package protocol AccountRepository: Sendable {
    /// Creates account, email and password credential and writes `event` (`account.created`) in
    /// one transaction. Throws `.conflict(.emailTaken)` when the email is taken.
    func createPasswordAccount(
        _ account: Account, email: AccountEmail, password: PasswordCredential, verification: EmailCodeMail?,
        event: AccountEvent
    ) async throws(RepositoryError)

    /// Creates every account, or none (one transaction). Conflicts name their constraint.
    /// `progress` is called after each batch with the number written so far.
    func importPasswordAccounts(
        _ accounts: [ImportedPasswordAccount], progress: @escaping @Sendable (Int) -> Void
    ) async throws(RepositoryError)

    /// The account and password credential for a normalised email, if both exist.
    func passwordAccount(normalizedEmail: String) async throws(RepositoryError) -> PasswordAccount?

    /// Replaces a password hash (re-hash after a legacy or weaker hash verified).
    /// Only replaces `expectedHash`, so a concurrent change is not overwritten.
    func updatePasswordHash(accountID: AccountID, from expectedHash: String, to newHash: String, at date: Date)
        async throws(RepositoryError)

    /// The account with its email, password presence and passkeys.
    func accountSummary(id: AccountID) async throws(RepositoryError) -> AccountSummary?

    /// Deletes the account and everything it owns in one transaction (email, password, passkeys,
    /// sessions, recovery codes, challenges, its completed passkey-account registration and the
    /// attempts counted against its email); false when it did not exist. `notice` is queued in
    /// the same transaction to the address read before the delete, when it was verified (the
    /// outbox has no foreign key, so the notice outlives the account).
    func deleteAccount(id: AccountID, notice: PendingNotice?) async throws(RepositoryError) -> Bool

    /// Removes the password if a passkey of the account has signed in at least once and, in the
    /// same transaction, ends every password session of the account except `keepingSession`.
    /// Serialised with passkey deletion on the account row. Recovery is set up with an unused code
    /// of the user's own set or, when `verifiedEmailCounts` (v3: mail is on), a verified address.
    /// When removed, `notice` is queued in the same transaction if the account's address is verified.
    /// `event` (`password.removed`) is written in the same transaction when removed.
    func removePassword(
        accountID: AccountID, keepingSession: SessionID, verifiedEmailCounts: Bool, notice: PendingNotice?,
        event: AccountEvent
    ) async throws(RepositoryError) -> PasswordRemovalOutcome

    /// (v3) Sets or replaces the password and, in the same transaction, ends every password
    /// session of the account except `keepingSession` and queues `notice` (rendered for the
    /// verified address and its language; nil or an unverified address: no notice). False when
    /// the account does not exist.
    func setPassword(
        accountID: AccountID, passwordHash: String, now: Date, keepingSession: SessionID,
        notice: PendingNotice?, event: AccountEvent
    ) async throws(RepositoryError) -> Bool

    /// (v3) Writes `event` (`sign-in.failed`) for the account whose address is `normalizedEmail`,
    /// in one statement that finds the account; an unknown address writes nothing.
    func recordFailedSignIn(_ event: PendingAccountEvent, normalizedEmail: String) async throws(RepositoryError)
}

extension AccountRepository {
    /// Deletes the account and queues no notice.
    package func deleteAccount(id: AccountID) async throws(RepositoryError) -> Bool {
        try await deleteAccount(id: id, notice: nil)
    }

}
