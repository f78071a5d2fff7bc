package import Foundation
package import PasskeyDomain

/// Why adding a passkey could not start.
package enum PasskeyRegistrationStartError: Error, Hashable, Sendable {
    /// Conditional mode needs a password sign-in less than the upgrade window ago, and never
    /// longer ago than the recent-sign-in window (spec v3).
    case conditionalNotAllowed
    /// `modal` needs a session that signed in recently (`REAUTHENTICATION_WINDOW_SECONDS`).
    case reauthenticationRequired
    /// The account holds `MAX_PASSKEYS_PER_ACCOUNT` passkeys already.
    case passkeyLimitReached
    case rateLimited(retryAfter: Int)
    /// The account was deleted under the request (401, as for a session that is gone).
    case unauthorized
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// Options for adding a passkey to the signed-in account.
package struct PasskeyRegistrationStart: Sendable {
    package let challengeID: ChallengeID
    package let expiresAt: Date
    package let mode: RegistrationMode
    package let options: CredentialCreationOptions
}

/// Starts adding a passkey to the signed-in account: by a button (modal) or silently right after
/// a password sign-in (conditional: Automatic Passkey Upgrade).
package struct PasskeyRegistrationStartUseCase: Sendable {
    let accounts: any AccountRepository
    let registrations: any PasskeyRegistrationRepository
    let issuer: ChallengeIssuer
    let recentSignIn: RecentSignInRequirement
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(
        accounts: any AccountRepository, registrations: any PasskeyRegistrationRepository, limiter: AddressRateLimiter,
        random: any RandomGenerator, policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.accounts = accounts
        self.registrations = registrations
        self.issuer = ChallengeIssuer(limiter: limiter, random: random, policy: policy, clock: clock)
        self.recentSignIn = RecentSignInRequirement(policy: policy, clock: clock)
        self.policy = policy
        self.clock = clock
    }

    package func execute(session: ActiveSession, mode: RegistrationMode, clientAddress: String)
        async throws(PasskeyRegistrationStartError) -> PasskeyRegistrationStart
    {
        switch mode {
        case .modal:
            // A stolen older token must not add the thief's passkey (spec v2, recent sign-in).
            do {
                _ = try recentSignIn.check(session)
            } catch {
                throw .reauthenticationRequired
            }
        case .conditional:
            // Checked at start; the challenge lifetime bounds the finish. The recent-sign-in rule
            // holds here too (spec v3): a step-up window shorter than the upgrade window cannot be
            // side-stepped by asking for conditional mode. Refused as conditional-not-allowed, as
            // every other conditional refusal: a modal start is what would need the new sign-in.
            let age = clock.now.timeIntervalSince(session.session.createdAt)
            guard session.session.method == .password, age < policy.conditionalUpgradeWindow else {
                throw .conditionalNotAllowed
            }
            do {
                _ = try recentSignIn.check(session)
            } catch {
                throw .conditionalNotAllowed
            }
        }
        try await issuer.admit(clientAddress: clientAddress, as: PasskeyRegistrationStartError.self)
        let found = try await PasskeyRegistrationStartError.catching { () async throws(RepositoryError) in
            try await accounts.accountSummary(id: session.account.id)
        }
        // No summary: the account was deleted since the token was checked. Answered as if it had
        // been gone already (spec v3, races with deletion), never 500.
        guard let summary = found else { throw .unauthorized }
        // The finish checks again, atomically with its insert; this spares a ceremony that cannot
        // end well (spec v3: an account holds at most MAX_PASSKEYS_PER_ACCOUNT passkeys).
        guard summary.passkeys.count < policy.maxPasskeysPerAccount else { throw .passkeyLimitReached }
        let fresh = issuer.fresh()
        let challenge = PasskeyRegistrationChallenge(
            id: ChallengeID(fresh.id), accountID: summary.account.id, challenge: fresh.challenge, mode: mode,
            expiresAt: fresh.expiresAt)
        try await PasskeyRegistrationStartError.catching { () async throws(RepositoryError) in
            try await registrations.saveRegistrationChallenge(challenge)
        }
        let options = CredentialCreationOptions(
            relyingPartyID: policy.relyingPartyID, relyingPartyName: policy.relyingPartyName,
            userHandle: summary.account.id.userHandle, userName: summary.email.value,
            userDisplayName: summary.account.displayName.value, challenge: challenge.challenge,
            algorithms: policy.algorithms, timeoutMilliseconds: Int(policy.challengeLifetime * 1000),
            excludeCredentials: summary.passkeys.map { CredentialDescriptor(id: $0.id, transports: $0.transports) },
            // Conditional create cannot ask the user for anything; UV is not demanded there.
            userVerification: mode == .conditional ? .preferred : policy.userVerification,
            attestation: policy.attestationConveyance)
        return PasskeyRegistrationStart(
            challengeID: challenge.id, expiresAt: challenge.expiresAt, mode: mode, options: options)
    }
}
