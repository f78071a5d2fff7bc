internal import Foundation
package import PasskeyDomain

/// Why a passkey sign-in failed. Verification reasons are logged; clients see only
/// `authentication-failed` (or `unknown-credential`, so they can call the WebAuthn signal API).
package enum PasskeyAuthenticationFinishError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    case challengeUnavailable
    case unknownCredential
    case authenticationFailed(CredentialVerificationFailure)
    /// (v4) A verified assertion of an account the support desk locked: the challenge is
    /// consumed, no session (403).
    case accountLocked
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// A successful sign-in.
package struct PasskeyAuthenticationFinish: Sendable {
    package let session: IssuedSession
    package let credentialID: CredentialID
    /// A synced passkey whose counter did not increase (accepted; logged and counted).
    package let cloneWarning: Bool
}

/// Verifies an assertion (WebAuthn L3 §7.2) and creates a session: two database round trips and
/// one durable commit. The first reads the challenge, the credential and its account without
/// writing; after verification one statement consumes the challenge, moves the counter and
/// inserts the session. A finish that reaches verification and fails (or names an unknown
/// credential) consumes the challenge with a statement of its own.
package struct PasskeyAuthenticationFinishUseCase: Sendable {
    let authentications: any PasskeyAuthenticationRepository
    let verifier: any CredentialVerifier
    let issuer: SessionIssuer
    let policy: PasskeyPolicy
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        authentications: any PasskeyAuthenticationRepository, verifier: any CredentialVerifier, issuer: SessionIssuer,
        policy: PasskeyPolicy, clock: any WallClock, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.authentications = authentications
        self.verifier = verifier
        self.issuer = issuer
        self.policy = policy
        self.clock = clock
    }

    /// `origin`: where the request came from, for the `sign-in` event.
    package func execute(
        challengeID: ChallengeID, response: AuthenticationResponse,
        origin: RequestOrigin = RequestOrigin(clientAddress: "unknown")
    )
        async throws(PasskeyAuthenticationFinishError) -> PasskeyAuthenticationFinish
    {
        let credentialID = response.credentialID
        let now = clock.now
        // Round trip 1 reads, writes nothing: an unusable challenge is refused without a commit.
        let context: AssertionContext
        do {
            context = try await authentications.assertionContext(
                challengeID: challengeID, credentialID: credentialID, now: now)
        } catch {
            throw .init(error)
        }
        guard let challenge = context.challenge else { throw .challengeUnavailable }
        guard let credential = context.credential, let account = context.account else {
            try await consume(challengeID, now: now)
            throw .unknownCredential
        }

        let verified: VerifiedAuthentication
        do {
            verified = try verifier.verifyAuthentication(
                response,
                expectation: AuthenticationExpectation(
                    challenge: challenge.challenge, requireUserVerification: policy.requiresUserVerification,
                    publicKey: credential.publicKey, storedSignCount: credential.signCount,
                    storedBackupEligible: credential.backupEligible, expectedUserHandle: account.id.userHandle,
                    requireUserHandle: true))
        } catch {
            // Consume-once covers failed verifications too: this challenge cannot be tried again.
            try await consume(challengeID, now: now)
            throw .authenticationFailed(error)
        }
        // (v4) A locked account: the assertion checked out; the challenge is used up as always, and
        // nothing else changes.
        if context.accountLocked {
            try await consume(challengeID, now: now)
            throw .accountLocked
        }
        // Round trip 2, the one durable commit: consume the challenge, move the counter, insert the session.
        let (stored, issued) = issuer.make(
            for: account, method: .passkey, credentialID: credential.id, userVerified: verified.userVerified, now: now)
        let event = events.event(
            .signIn(.passkey, credentialID: credential.id), accountID: account.id, sessionID: stored.id, at: now,
            from: origin)
        let recording: AssertionRecording
        do {
            recording = try await authentications.recordAssertion(
                challengeID: challengeID, credentialID: credential.id, expectedSignCount: credential.signCount,
                newSignCount: verified.signCount, backupState: verified.backupState, usedAt: now, session: stored,
                event: event)
        } catch {
            throw .init(error)
        }
        switch recording {
        case .recorded:
            return PasskeyAuthenticationFinish(
                session: issued, credentialID: credential.id, cloneWarning: verified.cloneWarning)
        case .challengeUnavailable:
            // A concurrent finish consumed it between the read and this write.
            throw .challengeUnavailable
        case .staleCounter:
            // Another assertion moved the counter since it was read: for a device-bound credential
            // two assertions with one counter value must not both win.
            throw .authenticationFailed(.signCountRegressed)
        case .accountLocked:
            // Locked between the read and this write.
            throw .accountLocked
        }
    }

    /// Uses the challenge up for a finish that failed after reading it. If a concurrent finish
    /// consumed it meanwhile, this one answers as if it had come after that one
    /// (`challenge-unavailable`): one verdict per challenge, as when consuming came first.
    private func consume(_ challengeID: ChallengeID, now: Date) async throws(PasskeyAuthenticationFinishError) {
        let consumed: Bool
        do {
            consumed = try await authentications.consumeAuthenticationChallenge(id: challengeID, now: now)
        } catch {
            throw .init(error)
        }
        guard consumed else { throw .challengeUnavailable }
    }
}
