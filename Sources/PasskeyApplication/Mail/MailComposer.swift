package import Foundation
package import PasskeyDomain

/// Renders the mails of the contract (spec v3, "Messages"): a code mail per purpose and a security
/// notice per kind, in the account's language (`EnglishMailWording`, `JapaneseMailWording`). The
/// code stands on a line of its own. A notice says what happened, when (UTC, `MailTimestamp`),
/// from which client address and what to do if it was not the user; it is built from a
/// `SecurityNotice` alone, which holds no password, token or code. The transport adds `Date`,
/// `Message-ID` and `From`, and encodes a non-ASCII subject (RFC 2047).
package struct MailComposer: Sendable {
    let relyingPartyName: String

    package init(relyingPartyName: String) { self.relyingPartyName = relyingPartyName }

    /// A mail carrying `code`; it is dropped instead of sent once the code expires.
    package func codeMail(
        id: UUID, purpose: EmailCodePurpose, code: String, to recipient: EmailAddress, language: MailLanguage,
        now: Date, expiresAt: Date
    ) -> OutgoingMail {
        let minutes = max(1, Int((expiresAt.timeIntervalSince(now) / 60).rounded()))
        let text: MailText
        switch language {
        case .english:
            text = EnglishMailWording.code(purpose: purpose, code: code, minutes: minutes, service: service)
        case .japanese:
            text = JapaneseMailWording.code(purpose: purpose, code: code, minutes: minutes, service: service)
        }
        return OutgoingMail(
            id: id, recipient: recipient, subject: text.subject, body: PlainTextWrapper.wrap(text.body),
            createdAt: now, notAfter: expiresAt)
    }

    /// A security notice to a verified address.
    package func notice(id: UUID, _ notice: SecurityNotice, to recipient: EmailAddress, language: MailLanguage)
        -> OutgoingMail
    {
        let address = notice.clientAddress.map { Self.printable($0) }
        let text: MailText
        switch language {
        case .english: text = EnglishMailWording.notice(notice, clientAddress: address, service: service)
        case .japanese: text = JapaneseMailWording.notice(notice, clientAddress: address, service: service)
        }
        return OutgoingMail(
            id: id, recipient: recipient, subject: text.subject, body: PlainTextWrapper.wrap(text.body),
            createdAt: notice.occurredAt)
    }

    /// The service's name as a mail line may hold it: one line.
    private var service: String { Self.printable(relyingPartyName, limit: 64) }

    /// Text from configuration or a request header as one short line: control characters (a line
    /// break would let the value write its own lines into the mail) become spaces.
    static func printable(_ value: String, limit: Int = 64) -> String {
        let cleaned = String(
            value.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return String(cleaned.prefix(limit))
    }
}
