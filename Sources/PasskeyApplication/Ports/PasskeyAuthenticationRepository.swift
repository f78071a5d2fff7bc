package import Foundation
package import PasskeyDomain

/// What a passkey sign-in (WebAuthn authentication) needs from storage: its challenge, the
/// read of the assertion context, and the one durable write of a verified assertion. `now`
/// comes from the application's clock (the one that set `expiresAt`), so expiry is decided by
/// one clock.
package protocol PasskeyAuthenticationRepository: Sendable {
    func saveAuthenticationChallenge(_ challenge: PasskeyAuthenticationChallenge) async throws(RepositoryError)

    /// Reads the challenge (only if unexpired and unconsumed at `now`) and the credential with its
    /// account in one round trip, writing nothing: a finish commits once, after verification.
    func assertionContext(challengeID: ChallengeID, credentialID: CredentialID, now: Date)
        async throws(RepositoryError) -> AssertionContext

    /// Marks the challenge consumed if it is not yet (a finish whose verification failed, or that
    /// named an unknown credential); one atomic, durable statement. False if it was consumed already.
    @discardableResult
    func consumeAuthenticationChallenge(id: ChallengeID, now: Date) async throws(RepositoryError) -> Bool

    /// The one durable write of a passkey sign-in, atomically: consumes the challenge (only if
    /// unconsumed and unexpired at `usedAt`); if that succeeded, updates counter, backup state and
    /// last use of the credential, only if the stored counter is still `expectedSignCount`; and if
    /// that succeeded too, creates the session and writes `event` (its `sign-in`). Commits all of
    /// it or only the consumption. One of the two hot paths that write an event outside the
    /// `UnitOfWork`, in one statement (docs/architecture.md, "The unit of work").
    func recordAssertion(
        challengeID: ChallengeID, credentialID: CredentialID, expectedSignCount: UInt32, newSignCount: UInt32,
        backupState: Bool, usedAt: Date, session: AuthenticationSession, event: AccountEvent
    ) async throws(RepositoryError) -> AssertionRecording
}
