package import Foundation

/// The one email address of an account (1:1).
package struct AccountEmail: Hashable, Sendable {
    package let id: UUID
    package let accountID: AccountID
    package let email: EmailAddress
    /// (v3) The language of the account's mails, from the sign-up request's `Accept-Language`.
    package let language: MailLanguage
    /// (v3) When the owner proved the address (or an import said it was proven); nil until then.
    package let verifiedAt: Date?

    package init(
        id: UUID = UUID(), accountID: AccountID, email: EmailAddress, language: MailLanguage = .english,
        verifiedAt: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.email = email
        self.language = language
        self.verifiedAt = verifiedAt
    }
}
