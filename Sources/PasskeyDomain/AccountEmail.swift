package import Foundation

/// The one email address of an account (1:1).
package struct AccountEmail: Hashable, Sendable {
    package let id: UUID
    package let accountID: AccountID
    package let email: EmailAddress

    package init(id: UUID = UUID(), accountID: AccountID, email: EmailAddress) {
        self.id = id
        self.accountID = accountID
        self.email = email
    }
}
