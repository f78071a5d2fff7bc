package import Foundation

/// The background sender's view of `mail_outbox` (spec v3, "Delivery"). Rows are queued by the
/// flows in their own transactions (`MailOutboxWriter`, through the `UnitOfWork`); this port claims, settles and
/// watches them.
package protocol MailOutboxRepository: Sendable {
    /// Claims at most `limit` due rows (due, not sent or abandoned, lease free or expired) with
    /// `FOR UPDATE SKIP LOCKED`, leases them until now + `lease` and commits: another sender skips
    /// them until the lease ends (then a crashed sender's rows are taken again). Code mails
    /// (with a `notAfter`) come before notices, then the longest due; a `limit` below 1 claims
    /// nothing.
    func claimDue(limit: Int, lease: TimeInterval) async throws(RepositoryError) -> [ClaimedMail]

    /// The mail went out: `sent_at` set, the body deleted, the lease released.
    func markSent(id: UUID) async throws(RepositoryError)

    /// A transient failure: `attempts` and `last_error` recorded, tried again at `nextAttemptAt`.
    func reschedule(id: UUID, attempts: Int, lastError: String, nextAttemptAt: Date) async throws(RepositoryError)

    /// Given up (too many attempts, a permanent failure, or a code that expired): `abandoned_at`
    /// set, the body deleted.
    func abandon(id: UUID, attempts: Int, lastError: String) async throws(RepositoryError)

    /// Gives back the leases of claimed mails this sender will not try now (it is stopping): they
    /// are due again at once, for another instance, without an attempt counted.
    func release(ids: [UUID]) async throws(RepositoryError)

    /// The age of the oldest due mail that is not sent or abandoned (nil when there is none).
    func oldestDueAge() async throws(RepositoryError) -> TimeInterval?
}

/// A row the sender holds a lease on.
package struct ClaimedMail: Sendable, Hashable {
    package let message: MailMessage
    /// The expiry of the code the mail carries: past it, the mail is dropped.
    package let notAfter: Date?
    /// Delivery attempts before this one.
    package let attempts: Int

    package init(message: MailMessage, notAfter: Date?, attempts: Int) {
        self.message = message
        self.notAfter = notAfter
        self.attempts = attempts
    }
}
