package import PasskeyDomain

/// An account as a transaction read it: what the use cases decide on (its address, whether that
/// is verified, which language its mails use, whether it has a password). Read by `lock`, its row
/// stays locked until the transaction ends, so nothing of this changes under the decision.
package struct AccountSnapshot: Hashable, Sendable {
    package let account: Account
    package let email: EmailAddress
    package let emailVerified: Bool
    package let language: MailLanguage
    package let hasPassword: Bool
    /// (v4) The support desk's lock, while the account is locked.
    package let lock: AccountLock?

    package init(
        account: Account, email: EmailAddress, emailVerified: Bool, language: MailLanguage, hasPassword: Bool,
        lock: AccountLock? = nil
    ) {
        self.account = account
        self.email = email
        self.emailVerified = emailVerified
        self.language = language
        self.hasPassword = hasPassword
        self.lock = lock
    }

    package var id: AccountID { account.id }

    /// Where a security notice goes: the address when it is verified, else nowhere.
    package var noticeRecipient: MailRecipient? {
        emailVerified ? MailRecipient(email: email, language: language) : nil
    }
}

/// An address and the language of the mails it gets.
package struct MailRecipient: Hashable, Sendable {
    package let email: EmailAddress
    package let language: MailLanguage

    package init(email: EmailAddress, language: MailLanguage) {
        self.email = email
        self.language = language
    }
}
