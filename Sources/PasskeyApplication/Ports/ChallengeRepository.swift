package import Foundation
package import PasskeyDomain

/// What a sign-in finish needs from storage, fetched together with consuming the challenge.
package struct AssertionContext: Sendable {
    /// The challenge, if this call consumed it (unknown, expired or used: nil).
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

    /// Consumes the challenge and looks up the credential and its account in one round trip.
    func consumeAuthenticationChallenge(id: ChallengeID, credentialID: CredentialID, now: Date)
        async throws(RepositoryError) -> AssertionContext
}
