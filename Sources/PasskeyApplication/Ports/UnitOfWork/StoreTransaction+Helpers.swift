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

    /// Queues `mail` with the change, when there is one (a notice to an unverified address, or
    /// with notices off, is nil).
    package func queue(_ mail: OutgoingMail?) async throws(RepositoryError) {
        if let mail { try await outbox.enqueue(mail) }
    }

    /// Stores a mailed code and queues the mail that carries it, to `recipient`.
    package func store(_ code: EmailCodeMail, of accountID: AccountID, sentTo recipient: EmailAddress)
        async throws(RepositoryError)
    {
        try await emailCodes.insert(code.draft, of: accountID, sentTo: recipient)
        try await outbox.enqueue(code.mail)
    }
}
