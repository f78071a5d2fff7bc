package import Foundation
package import PasskeyDomain

/// What a sign-in finish needs from storage, read in one round trip without writing anything.
package struct AssertionContext: Sendable {
    /// The challenge, if it is known, unexpired and not consumed when read (else nil). Reading it
    /// does not consume it: `SessionRepository.recordAssertion` or `consumeAuthenticationChallenge` does.
    package let challenge: PasskeyAuthenticationChallenge?
    /// The credential named by the response, if registered.
    package let credential: PasskeyCredential?
    /// The account owning the credential.
    package let account: Account?

    package init(challenge: PasskeyAuthenticationChallenge?, credential: PasskeyCredential?, account: Account?) {
        self.challenge = challenge
        self.credential = credential
        self.account = account
    }
}

/// Registration and authentication challenges, each consumed at most once. `now` comes from the
/// application's clock (the one that set `expiresAt`), so expiry is decided by one clock.
package protocol ChallengeRepository: Sendable {
    func saveRegistrationChallenge(_ challenge: PasskeyRegistrationChallenge) async throws(RepositoryError)

    /// Marks the challenge consumed and returns it, only if it exists, belongs to `accountID`,
    /// is unexpired and was not consumed before; one atomic statement.
    func consumeRegistrationChallenge(id: ChallengeID, accountID: AccountID, now: Date)
        async throws(RepositoryError) -> PasskeyRegistrationChallenge?

    func saveAuthenticationChallenge(_ challenge: PasskeyAuthenticationChallenge) async throws(RepositoryError)

    /// Reads the challenge (only if unexpired and unconsumed at `now`) and the credential with its
    /// account in one round trip, writing nothing: a finish commits once, after verification.
    func assertionContext(challengeID: ChallengeID, credentialID: CredentialID, now: Date)
        async throws(RepositoryError) -> AssertionContext

    /// Marks the challenge consumed if it is not yet (a finish whose verification failed, or that
    /// named an unknown credential); one atomic, durable statement. False if it was consumed already.
    @discardableResult
    func consumeAuthenticationChallenge(id: ChallengeID, now: Date) async throws(RepositoryError) -> Bool
}
