package import PasskeyDomain

/// The mail outbox, inside a transaction: a queued mail commits with the change that causes it.
package protocol MailOutboxWriter {
    func enqueue(_ mail: OutgoingMail) async throws(RepositoryError)
}
