/// A mail's subject and plain-text body in one language, before it is addressed.
package struct MailText: Hashable, Sendable {
    package let subject: String
    package let body: String

    package init(subject: String, body: String) {
        self.subject = subject
        self.body = body
    }
}
