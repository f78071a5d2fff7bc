package import Foundation
package import PasskeyDomain

extension StoreTransaction {
    /// Re-checks, inside the change's transaction, the session that authorised it: locked
    /// `FOR SHARE`, so a revocation (sign-out, a take-back) waits until the change commits and
    /// then ends it with the rest, or came first and the change is refused (`.sessionEnded`).
    /// Call it after locking the account: a take-back holds the account's lock while it revokes.
    /// (Security round 4, finding 1: a change authorised before a take-back committed after it.)
    package func requireLive(_ session: AuthenticationSession, at date: Date) async throws(RepositoryError) {
        guard try await sessions.lockLive(session.id, at: date) else { throw .sessionEnded }
    }

    /// At most this many notices of one kind go to one address in an hour; later ones of that
    /// kind are not queued (the account's activity still lists every change). Other kinds still
    /// go, so a burst of one harmless change cannot hide another change from the owner (security
    /// round 4, finding 4: 200 recovery-code sets queued 200 notices).
    package static var noticesOfOneKindPerHour: Int { 3 }

    /// Queues `mail` with the change, when there is one (a notice to an unverified address, or
    /// with notices off, is nil), unless it is a notice of a kind that went to its address
    /// `noticesOfOneKindPerHour` times in the last hour. Changes that queue a notice hold the
    /// account's lock, so the count holds under concurrency.
    package func queue(_ mail: OutgoingMail?) async throws(RepositoryError) {
        guard let mail else { return }
        if mail.notAfter == nil {
            let sent = try await outbox.notices(
                to: mail.recipient, subject: mail.subject, since: mail.createdAt.addingTimeInterval(-3600))
            guard sent < Self.noticesOfOneKindPerHour else { return }
        }
        try await outbox.enqueue(mail)
    }

    /// Stores a mailed code and queues the mail that carries it, to `recipient`.
    package func store(_ code: EmailCodeMail, of accountID: AccountID, sentTo recipient: EmailAddress)
        async throws(RepositoryError)
    {
        try await emailCodes.insert(code.draft, of: accountID, sentTo: recipient)
        try await outbox.enqueue(code.mail)
    }
}
