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
    let limiter: AddressRateLimiter
    let random: any RandomGenerator
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(
        authentications: any PasskeyAuthenticationRepository, limiter: AddressRateLimiter, random: any RandomGenerator,
        policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.authentications = authentications
        self.limiter = limiter
        self.random = random
        self.policy = policy
        self.clock = clock
    }

    package func execute(clientAddress: String) async throws(PasskeyAuthenticationStartError)
        -> PasskeyAuthenticationStart
    {
        let challenge = PasskeyAuthenticationChallenge(
            id: ChallengeID(random.uuid()), challenge: Challenge(bytes: random.bytes(count: Challenge.length)),
            expiresAt: clock.now.addingTimeInterval(policy.challengeLifetime))
        let decision: RateLimitDecision
        do {
            decision = try await limiter.check(clientAddress: clientAddress)
        } catch {
            throw .init(error)
        }
        if case .limited(let retryAfter) = decision { throw .rateLimited(retryAfter: retryAfter) }
        do {
            try await authentications.saveAuthenticationChallenge(challenge)
        } catch {
            throw .init(error)
        }
        return PasskeyAuthenticationStart(
            challengeID: challenge.id, expiresAt: challenge.expiresAt,
            options: CredentialRequestOptions(
                relyingPartyID: policy.relyingPartyID, challenge: challenge.challenge,
                timeoutMilliseconds: Int(policy.challengeLifetime * 1000), userVerification: policy.userVerification))
    }
}
