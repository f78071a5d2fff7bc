package import PasskeyDomain

/// Why a passkey sign-up failed. Except for `registrationUnavailable`, the registration stays
/// usable until it expires, so the client can retry (for example with another email).
package enum PasskeyAccountRegistrationFinishError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    /// Unknown, expired or completed.
    case registrationUnavailable
    case verificationFailed(CredentialVerificationFailure)
    /// Email or display name differ from what start recorded.
    case registrationMismatch
    case emailTaken
    case credentialExists
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// A passkey account just created.
package struct PasskeyAccountRegistrationFinish: Sendable {
    package let session: IssuedSession
    package let credential: PasskeyCredential
}

/// Verifies the new passkey and creates account, email, passkey and first session in one
/// transaction together with completing the registration; no password credential is created.
package struct PasskeyAccountRegistrationFinishUseCase: Sendable {
    let registrations: any AccountRegistrationRepository
    let verifier: any CredentialVerifier
    let names: any AuthenticatorNames
    let issuer: SessionIssuer
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(
        registrations: any AccountRegistrationRepository, verifier: any CredentialVerifier,
        names: any AuthenticatorNames, issuer: SessionIssuer, policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.registrations = registrations
        self.verifier = verifier
        self.names = names
        self.issuer = issuer
        self.policy = policy
        self.clock = clock
    }

    package func execute(
        registrationID: RegistrationID, email rawEmail: String, displayName rawName: String,
        response: RegistrationResponse, name: PasskeyName?, residentKey: Bool?
    ) async throws(PasskeyAccountRegistrationFinishError) -> PasskeyAccountRegistrationFinish {
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard let displayName = DisplayName(rawName) else { throw .invalidRequest(field: "displayName") }
        let found: PasskeyAccountRegistration?
        do {
            found = try await registrations.usableAccountRegistration(id: registrationID, now: clock.now)
        } catch {
            throw .init(error)
        }
        guard let registration = found else { throw .registrationUnavailable }
        if let recorded = registration.email, recorded != email { throw .registrationMismatch }
        if let recorded = registration.displayName, recorded != displayName { throw .registrationMismatch }

        let now = clock.now
        let verified: VerifiedRegistration
        do {
            verified = try verifier.verifyRegistration(
                response,
                expectation: RegistrationExpectation(
                    challenge: registration.challenge, requireUserPresence: true,
                    requireUserVerification: policy.requiresUserVerification, verificationTime: now))
        } catch {
            throw .verificationFailed(error)
        }
        let account = Account(id: registration.prospectiveAccountID, displayName: displayName, createdAt: now)
        let credential = verified.credential(
            accountID: account.id, response: response, name: name, residentKey: residentKey, names: names,
            createdAt: now)
        let (stored, issued) = issuer.make(for: account, method: .passkey, credentialID: credential.id, now: now)
        let completion: AccountRegistrationCompletion
        do {
            completion = try await registrations.completeAccountRegistration(
                id: registrationID, account: account, email: AccountEmail(accountID: account.id, email: email),
                credential: credential, session: stored, now: now)
        } catch {
            switch error {
            case .conflict(.emailTaken): throw .emailTaken
            case .conflict(.credentialExists): throw .credentialExists
            case .unavailable: throw .unavailable
            case .conflict, .failure: throw .internalFailure(cause: FailureCause(error))
            }
        }
        guard completion == .completed else { throw .registrationUnavailable }
        return PasskeyAccountRegistrationFinish(session: issued, credential: credential)
    }
}
