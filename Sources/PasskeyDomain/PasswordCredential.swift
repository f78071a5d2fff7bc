package import Foundation

/// A password hash in PHC string form (`$argon2id$…`, or a legacy `$2b$…` / `$pbkdf2-sha256$…`).
package struct PasswordCredential: Hashable, Sendable {
    package let accountID: AccountID
    package var passwordHash: String
    package let createdAt: Date
    package var updatedAt: Date

    package init(accountID: AccountID, passwordHash: String, createdAt: Date, updatedAt: Date) {
        self.accountID = accountID
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
