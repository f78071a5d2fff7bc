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

/// Authentication sessions (bearer tokens are stored as SHA-256 digests only).
package protocol SessionRepository: Sendable {
    func createSession(_ session: AuthenticationSession) async throws(RepositoryError)

    /// Creates the session a sign-in made and writes its `sign-in` event in the same statement.
    func createSession(_ session: AuthenticationSession, event: AccountEvent) async throws(RepositoryError)

    /// The session with this token digest if it is neither revoked nor expired at `now`.
    func activeSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> ActiveSession?

    /// Revokes a session; returns false if it was already revoked or does not exist.
    func revokeSession(id: SessionID, at date: Date) async throws(RepositoryError) -> Bool

    /// The account's sessions that are neither revoked nor expired at `now`, newest first.
    func activeSessions(accountID: AccountID, now: Date) async throws(RepositoryError) -> [AuthenticationSession]

    /// Revokes an active session of this account and writes `event` (`sessions.ended`) in the same
    /// statement; false when it is unknown, already ended, or another account's (then no event).
    func revokeSession(id: SessionID, accountID: AccountID, now: Date, event: AccountEvent)
        async throws(RepositoryError) -> Bool

    /// Revokes every active session of the account except `keeping`; returns how many. `event`
    /// (`sessions.ended`) is written in the same statement when at least one was ended.
    func revokeOtherSessions(accountID: AccountID, keeping: SessionID, now: Date, event: AccountEvent)
        async throws(RepositoryError) -> Int
}
