package import PasskeyDomain

/// Why a passkey sign-in failed. Verification reasons are logged; clients see only
/// `authentication-failed` (or `unknown-credential`, so they can call the WebAuthn signal API).
package enum PasskeyAuthenticationFinishError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    case challengeUnavailable
    case unknownCredential
    case authenticationFailed(CredentialVerificationFailure)
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: String)
}

/// A successful sign-in.
package struct PasskeyAuthenticationFinish: Sendable {
    package let session: IssuedSession
    package let credentialID: CredentialID
    /// A synced passkey whose counter did not increase (accepted; logged and counted).
    package let cloneWarning: Bool
}

/// Verifies an assertion (WebAuthn L3 §7.2) and creates a session: two database round trips,
/// one to consume the challenge and read the credential, one to record the assertion and the session.
package struct PasskeyAuthenticationFinishUseCase: Sendable {
    let challenges: any ChallengeRepository
    let sessions: any SessionRepository
    let verifier: any CredentialVerifier
    let issuer: SessionIssuer
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(
        challenges: any ChallengeRepository, sessions: any SessionRepository, verifier: any CredentialVerifier,
        issuer: SessionIssuer, policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.challenges = challenges
        self.sessions = sessions
        self.verifier = verifier
        self.issuer = issuer
        self.policy = policy
        self.clock = clock
    }

    package func execute(challengeID: ChallengeID, response: AuthenticationResponse)
        async throws(PasskeyAuthenticationFinishError) -> PasskeyAuthenticationFinish
    {
        guard let credentialID = CredentialID(bytes: response.credentialID) else {
            throw .invalidRequest(field: "credentialID")
        }
        let context: AssertionContext
        do {
            context = try await challenges.consumeAuthenticationChallenge(
                id: challengeID, credentialID: credentialID, now: clock.now)
        } catch {
            throw .init(error)
        }
        guard let challenge = context.challenge else { throw .challengeUnavailable }
        guard let credential = context.credential, let account = context.account else { throw .unknownCredential }

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
            throw .authenticationFailed(error)
        }
        let now = clock.now
        let (stored, issued) = issuer.make(for: account, method: .passkey, credentialID: credential.id, now: now)
        let recording: AssertionRecording
        do {
            recording = try await sessions.recordAssertion(
                credentialID: credential.id, expectedSignCount: credential.signCount, newSignCount: verified.signCount,
                backupState: verified.backupState, usedAt: now, session: stored)
        } catch {
            throw .init(error)
        }
        // Another assertion moved the counter since it was read: for a device-bound credential
        // two assertions with one counter value must not both win.
        guard recording == .recorded else { throw .authenticationFailed(.signCountRegressed) }
        return PasskeyAuthenticationFinish(
            session: issued, credentialID: credential.id, cloneWarning: verified.cloneWarning)
    }
}
