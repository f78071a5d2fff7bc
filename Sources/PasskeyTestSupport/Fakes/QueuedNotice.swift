package import PasskeyApplication
package import PasskeyDomain

/// A security notice an in-memory repository queued with a change that went through (the fakes
/// do not model verified addresses: the tests on PostgreSQL cover that rule). A change that was
/// refused or failed queues none, as the adapter's rolled-back transaction would.
package struct QueuedNotice: Sendable {
    package let accountID: AccountID
    package let pending: PendingNotice

    package init(accountID: AccountID, pending: PendingNotice) {
        self.accountID = accountID
        self.pending = pending
    }

    package var kind: SecurityNotice.Kind { pending.notice.kind }

    /// The notice as it would be mailed to `address`, in `language`.
    package func mail(to address: EmailAddress, language: MailLanguage = .english) -> OutgoingMail {
        pending.mail(to: address, language: language)
    }
}
