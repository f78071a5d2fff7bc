package import Foundation
package import PasskeyDomain

/// A live session with its account, for bearer authentication.
package struct ActiveSession: Hashable, Sendable {
    package let session: AuthenticationSession
    package let account: Account

    package init(session: AuthenticationSession, account: Account) {
        self.session = session
        self.account = account
    }
}

/// What `createSession(_:event:whilePasswordHashIs:)` came to.
package enum PasswordSessionCreation: Hashable, Sendable {
    case created
    /// The password was changed or removed since it verified: nothing written.
    case passwordChanged
    /// (v4) The account is locked: nothing written.
    case accountLocked
}

/// Authentication sessions (bearer tokens are stored as SHA-256 digests only).
package protocol SessionRepository: Sendable {
    func createSession(_ session: AuthenticationSession) async throws(RepositoryError)

    /// Creates the session a password sign-in made and writes its `sign-in` event in the same
    /// statement, only while the account's password hash is still `passwordHash` (the one that
    /// verified, or its upgrade): one of the two hot paths that write an event outside the
    /// `UnitOfWork` (docs/architecture.md, "The unit of work"). False, and nothing written, when
    /// the password was changed or removed since it was read, so a take-back or a new password
    /// that committed meanwhile is never followed by a session of the old one (security round 4,
    /// finding 1). A change that is still running when this arrives makes it wait, and then
    /// revokes what it finds.
    /// (v4) `.accountLocked`, and nothing written, when the support desk locked the account:
    /// its row is read `FOR KEY SHARE` in the statement, after a lock being written commits.
    func createSession(_ session: AuthenticationSession, event: AccountEvent, whilePasswordHashIs passwordHash: String)
        async throws(RepositoryError) -> PasswordSessionCreation

    /// The session with this token digest if it is neither revoked nor expired at `now`.
    func activeSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> ActiveSession?

    /// The account's sessions that are neither revoked nor expired at `now`, newest first.
    func activeSessions(accountID: AccountID, now: Date) async throws(RepositoryError) -> [AuthenticationSession]
}
