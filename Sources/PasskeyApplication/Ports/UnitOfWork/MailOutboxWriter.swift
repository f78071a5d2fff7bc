package import Foundation
package import PasskeyDomain

/// The mail outbox, inside a transaction: a queued mail commits with the change that causes it.
package protocol MailOutboxWriter {
    func enqueue(_ mail: OutgoingMail) async throws(RepositoryError)

    /// How many notices (mails without `notAfter`) with this subject were queued to `recipient`
    /// after `since`: the subject names the notice's kind in the account's language.
    func notices(to recipient: EmailAddress, subject: String, since: Date) async throws(RepositoryError) -> Int
}
