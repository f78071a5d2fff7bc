package import Foundation
package import PasskeyDomain

/// One mail as the transport sends it: the outbox row's ID (the stable `Message-ID` across
/// retries), recipient, subject and UTF-8 plain-text body. The transport adds `From`, `Date`
/// and the MIME headers.
package struct MailMessage: Sendable, Hashable {
    package let id: UUID
    package let recipient: EmailAddress
    package let subject: String
    package let body: String

    package init(id: UUID, recipient: EmailAddress, subject: String, body: String) {
        self.id = id
        self.recipient = recipient
        self.subject = subject
        self.body = body
    }
}
