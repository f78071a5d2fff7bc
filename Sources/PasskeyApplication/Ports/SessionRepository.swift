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

/// The outcome of recording a verified assertion.
package enum AssertionRecording: Hashable, Sendable {
    case recorded
    /// The challenge was consumed (or expired) since it was read: a concurrent finish won. Nothing written.
    case challengeUnavailable
    /// The stored counter changed since it was read (a concurrent assertion won). The challenge is
    /// consumed; nothing else is written.
    case staleCounter
}

/// Authentication sessions (bearer tokens are stored as SHA-256 digests only).
package protocol SessionRepository: Sendable {
    func createSession(_ session: AuthenticationSession) async throws(RepositoryError)

    /// The session with this token digest if it is neither revoked nor expired at `now`.
    func activeSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> ActiveSession?

    /// Revokes a session; returns false if it was already revoked or does not exist.
    func revokeSession(id: SessionID, at date: Date) async throws(RepositoryError) -> Bool

    /// The account's sessions that are neither revoked nor expired at `now`, newest first.
    func activeSessions(accountID: AccountID, now: Date) async throws(RepositoryError) -> [AuthenticationSession]

    /// Revokes an active session of this account; false when it is unknown, already ended, or
    /// another account's.
    func revokeSession(id: SessionID, accountID: AccountID, now: Date) async throws(RepositoryError) -> Bool

    /// Revokes every active session of the account except `keeping`; returns how many.
    func revokeOtherSessions(accountID: AccountID, keeping: SessionID, now: Date) async throws(RepositoryError) -> Int

    /// The one durable write of a passkey sign-in, atomically: consumes the challenge (only if
    /// unconsumed and unexpired at `usedAt`); if that succeeded, updates counter, backup state and
    /// last use of the credential, only if the stored counter is still `expectedSignCount`; and if
    /// that succeeded too, creates the session. Commits all of it or only the consumption.
    func recordAssertion(
        challengeID: ChallengeID, credentialID: CredentialID, expectedSignCount: UInt32, newSignCount: UInt32,
        backupState: Bool, usedAt: Date, session: AuthenticationSession
    ) async throws(RepositoryError) -> AssertionRecording
}
