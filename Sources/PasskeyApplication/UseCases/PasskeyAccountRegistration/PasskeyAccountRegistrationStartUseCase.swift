internal import Foundation
package import PasskeyDomain

/// Why a passkey sign-up could not start.
package enum PasskeyAccountRegistrationStartError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    case rateLimited(retryAfter: Int)
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// Options for creating an account with a passkey; the account does not exist yet.
package struct PasskeyAccountRegistrationStart: Sendable {
    package let registration: PasskeyAccountRegistration
    package let options: CredentialCreationOptions
}

/// Starts a passkey-only sign-up: by a form (email and name now) or by the iOS 26 system sheet
/// (which returns them only at the end).
package struct PasskeyAccountRegistrationStartUseCase: Sendable {
    let registrations: any AccountRegistrationRepository
    let issuer: ChallengeIssuer
    let random: any RandomGenerator
    let policy: PasskeyPolicy

    package init(
        registrations: any AccountRegistrationRepository, limiter: AddressRateLimiter, random: any RandomGenerator,
        policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.registrations = registrations
        self.issuer = ChallengeIssuer(limiter: limiter, random: random, policy: policy, clock: clock)
        self.random = random
        self.policy = policy
    }

    package func execute(email rawEmail: String?, displayName rawName: String?, clientAddress: String)
        async throws(PasskeyAccountRegistrationStartError) -> PasskeyAccountRegistrationStart
    {
        var email: EmailAddress?
        var displayName: DisplayName?
        if let rawEmail {
            guard let parsed = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
            email = parsed
        }
        if let rawName {
            guard let parsed = DisplayName(rawName) else { throw .invalidRequest(field: "displayName") }
            displayName = parsed
        }
        let registration = try await issuer.issue(
            clientAddress: clientAddress, as: PasskeyAccountRegistrationStartError.self,
            make: { fresh in
                PasskeyAccountRegistration(
                    id: RegistrationID(fresh.id), prospectiveAccountID: AccountID(random.uuid()), email: email,
                    displayName: displayName, challenge: fresh.challenge, expiresAt: fresh.expiresAt)
            },
            save: { (registration) async throws(RepositoryError) in
                try await registrations.saveAccountRegistration(registration)
            })
        let options = CredentialCreationOptions(
            relyingPartyID: policy.relyingPartyID, relyingPartyName: policy.relyingPartyName,
            userHandle: registration.prospectiveAccountID.userHandle, userName: email?.value ?? "",
            userDisplayName: displayName?.value ?? "", challenge: registration.challenge, algorithms: policy.algorithms,
            timeoutMilliseconds: Int(policy.challengeLifetime * 1000), excludeCredentials: [],
            userVerification: policy.userVerification, attestation: policy.attestationConveyance)
        return PasskeyAccountRegistrationStart(registration: registration, options: options)
    }
}
