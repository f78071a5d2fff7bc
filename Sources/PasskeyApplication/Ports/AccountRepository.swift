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
    /// (v4) Whether the support desk had locked the account when it was read.
    package let isLocked: Bool

    package init(account: Account, credential: PasswordCredential, isLocked: Bool = false) {
        self.account = account
        self.credential = credential
        self.isLocked = isLocked
    }
}

/// Reading accounts, their email and their password credential (changes go through the
/// `UnitOfWork`), and the re-hash of a password that verified.
package protocol AccountRepository: Sendable {
    /// The account and password credential for a normalised email, if both exist.
    func passwordAccount(normalizedEmail: String) async throws(RepositoryError) -> PasswordAccount?

    /// Replaces a password hash (re-hash after a legacy or weaker hash verified).
    /// Only replaces `expectedHash`, so a concurrent change is not overwritten.
    func updatePasswordHash(accountID: AccountID, from expectedHash: String, to newHash: String, at date: Date)
        async throws(RepositoryError)

    /// The account with its email, password presence and passkeys.
    func accountSummary(id: AccountID) async throws(RepositoryError) -> AccountSummary?
}
