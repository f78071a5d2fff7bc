package import Foundation

/// A mail as the outbox stores it (spec v3, "Delivery"): rendered when the change that causes it
/// happens, queued in that change's transaction, sent later by the background sender. The body is
/// UTF-8 plain text; the transport adds the RFC 5322 headers (`Date`, `Message-ID`, `From`).
package struct OutgoingMail: Hashable, Sendable {
    package let id: UUID
    package let recipient: EmailAddress
    package let subject: String
    package let body: String
    package let createdAt: Date
    /// The expiry of the code the mail carries (nil for a notice): past it, the mail is dropped
    /// instead of sent late.
    package let notAfter: Date?

    package init(
        id: UUID, recipient: EmailAddress, subject: String, body: String, createdAt: Date, notAfter: Date? = nil
    ) {
        self.id = id
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.createdAt = createdAt
        self.notAfter = notAfter
    }
}
