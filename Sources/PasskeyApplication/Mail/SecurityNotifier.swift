package import Foundation
package import PasskeyDomain

/// Decides whether a change sends a security notice and prepares it (spec v3, "Security
/// notices"): only while mail is on (`MAIL_URL`) and `SECURITY_NOTIFICATIONS` is on, and only to a
/// verified address. `mail(_:for:at:from:)` renders it for the account the use case read in its
/// transaction, which queues it there (`tx.queue`): a change that rolls back queues nothing.
package struct SecurityNotifier: Sendable {
    let enabled: Bool
    let composer: MailComposer
    let random: (any RandomGenerator)?

    package init(policy: PasskeyPolicy, random: any RandomGenerator) {
        self.enabled = policy.mail.enabled && policy.mail.securityNotifications
        self.composer = MailComposer(relyingPartyName: policy.relyingPartyName)
        self.random = random
    }

    private init() {
        self.enabled = false
        self.composer = MailComposer(relyingPartyName: "")
        self.random = nil
    }

    /// Sends nothing: mail off, and what use cases built without a notifier use.
    package static let off = SecurityNotifier()

    /// The notice of a change of `kind` to `account` at `date` from `origin`, rendered for its
    /// address and language; nil when notices are off or the address is not verified (notices go
    /// to verified addresses only). The use case queues it in the change's transaction.
    package func mail(
        _ kind: SecurityNotice.Kind, for account: AccountSnapshot, at date: Date, from origin: RequestOrigin
    ) -> OutgoingMail? {
        guard let recipient = account.noticeRecipient else { return nil }
        return notice(kind, at: date, from: origin)?.mail(to: recipient.email, language: recipient.language)
    }

    /// (v4) The notice of an operator's action of `kind` on `account` at `date` (from the support
    /// desk, no address); nil as `mail(_:for:at:from:)`.
    package func supportMail(_ kind: SecurityNotice.Kind, for account: AccountSnapshot, at date: Date)
        -> OutgoingMail?
    {
        guard let recipient = account.noticeRecipient else { return nil }
        return notice(kind, at: date, from: nil)?.mail(to: recipient.email, language: recipient.language)
    }

    /// The notice of a change of `kind` at `date` from `origin` (nil: the support desk), or nil
    /// when notices are off.
    package func notice(_ kind: SecurityNotice.Kind, at date: Date, from origin: RequestOrigin?) -> PendingNotice? {
        guard enabled, let random else { return nil }
        return PendingNotice(
            id: random.uuid(),
            notice: SecurityNotice(kind: kind, occurredAt: date, clientAddress: origin?.clientAddress),
            composer: composer)
    }
}
