package import Foundation
package import PasskeyDomain

/// Why a passkey sign-in could not start.
package enum PasskeyAuthenticationStartError: Error, Hashable, Sendable {
    case rateLimited(retryAfter: Int)
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// Options for the one shared sign-in flow.
package struct PasskeyAuthenticationStart: Sendable {
    package let challengeID: ChallengeID
    package let expiresAt: Date
    package let options: CredentialRequestOptions
}

/// Issues a sign-in challenge (discoverable credentials: no username first, allowCredentials empty).
package struct PasskeyAuthenticationStartUseCase: Sendable {
    let authentications: any PasskeyAuthenticationRepository
    let issuer: ChallengeIssuer
    let policy: PasskeyPolicy

    package init(
        authentications: any PasskeyAuthenticationRepository, limiter: AddressRateLimiter, random: any RandomGenerator,
        policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.authentications = authentications
        self.issuer = ChallengeIssuer(limiter: limiter, random: random, policy: policy, clock: clock)
        self.policy = policy
    }

    package func execute(clientAddress: String) async throws(PasskeyAuthenticationStartError)
        -> PasskeyAuthenticationStart
    {
        let challenge = try await issuer.issue(
            clientAddress: clientAddress, as: PasskeyAuthenticationStartError.self,
            make: {
                PasskeyAuthenticationChallenge(id: ChallengeID($0.id), challenge: $0.challenge, expiresAt: $0.expiresAt)
            },
            save: { (challenge) async throws(RepositoryError) in
                try await authentications.saveAuthenticationChallenge(challenge)
            })
        return PasskeyAuthenticationStart(
            challengeID: challenge.id, expiresAt: challenge.expiresAt,
            options: CredentialRequestOptions(
                relyingPartyID: policy.relyingPartyID, challenge: challenge.challenge,
                timeoutMilliseconds: Int(policy.challengeLifetime * 1000), userVerification: policy.userVerification))
    }
}
