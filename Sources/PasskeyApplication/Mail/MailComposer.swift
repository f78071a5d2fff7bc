package import Foundation
package import PasskeyDomain

/// Renders the mails of the contract (spec v3, "Messages"): a code mail per purpose and a security
/// notice per kind, in the account's language. The code stands on a line of its own. The
/// transport adds `Date`, `Message-ID` and `From`, and encodes a non-ASCII subject (RFC 2047).
package struct MailComposer: Sendable {
    let relyingPartyName: String

    package init(relyingPartyName: String) { self.relyingPartyName = relyingPartyName }

    /// A mail carrying `code`; it is dropped instead of sent once the code expires.
    package func codeMail(
        id: UUID, purpose: EmailCodePurpose, code: String, to recipient: EmailAddress, language: MailLanguage,
        now: Date, expiresAt: Date
    ) -> OutgoingMail {
        let minutes = max(1, Int((expiresAt.timeIntervalSince(now) / 60).rounded()))
        let subject = "\(relyingPartyName): your code"
        let body = """
            Your code:

            \(code)

            It is valid for \(minutes) minutes and works once. If you did not ask for it, ignore this mail.
            """
        _ = (purpose, language)
        return OutgoingMail(
            id: id, recipient: recipient, subject: subject, body: body + "\n", createdAt: now, notAfter: expiresAt)
    }

    /// A security notice to a verified address.
    package func notice(id: UUID, _ notice: SecurityNotice, to recipient: EmailAddress, language: MailLanguage)
        -> OutgoingMail
    {
        let subject = "\(relyingPartyName): security notice"
        let body = """
            Something changed on your account at \(notice.occurredAt) (UTC) from \(notice.clientAddress).

            If this was not you, sign in, end your other sessions, or contact support.
            """
        _ = language
        return OutgoingMail(
            id: id, recipient: recipient, subject: subject, body: body + "\n", createdAt: notice.occurredAt)
    }
}
