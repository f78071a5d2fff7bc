package import PasskeyDomain

/// Why a passkey sign-up failed. A failure after the registration was found (mismatch,
/// verification, `emailTaken`, `credentialExists`, `rateLimited`) leaves it usable for a retry,
/// for example with another email, but only `PasskeyAccountRegistration.maximumFailedFinishes`
/// times: then it is used up and answers `registrationUnavailable`.
package enum PasskeyAccountRegistrationFinishError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    /// Unknown, expired, completed or used up.
    case registrationUnavailable
    case verificationFailed(CredentialVerificationFailure)
    /// Email or display name differ from what start recorded.
    case registrationMismatch
    case emailTaken
    case credentialExists
    /// An `emailTaken` beyond the client address's sign-up budget: finishes test addresses no
    /// faster than sign-ups can.
    case rateLimited(retryAfter: Int)
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
    let store: any UnitOfWork
    let verifier: any CredentialVerifier
    let names: any AuthenticatorNames
    let issuer: SessionIssuer
    let limiter: AddressRateLimiter
    let policy: PasskeyPolicy
    let clock: any WallClock
    /// (v3) The verification code mailed with the new account (nil: mail off).
    let verification: SignUpVerification?
    let events: AccountEventMaker

    package init(
        registrations: any AccountRegistrationRepository, store: any UnitOfWork, verifier: any CredentialVerifier,
        names: any AuthenticatorNames, issuer: SessionIssuer, limiter: AddressRateLimiter, policy: PasskeyPolicy,
        clock: any WallClock, verification: SignUpVerification? = nil, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.verification = verification
        self.registrations = registrations
        self.store = store
        self.limiter = limiter
        self.verifier = verifier
        self.names = names
        self.issuer = issuer
        self.policy = policy
        self.clock = clock
    }

    package func execute(
        registrationID: RegistrationID, email rawEmail: String, displayName rawName: String,
        response: RegistrationResponse, name: PasskeyName?, residentKey: Bool?, clientAddress: String,
        language: MailLanguage = .english, origin: RequestOrigin? = nil
    ) async throws(PasskeyAccountRegistrationFinishError) -> PasskeyAccountRegistrationFinish {
        let origin = origin ?? RequestOrigin(clientAddress: clientAddress)
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard let displayName = DisplayName(rawName) else { throw .invalidRequest(field: "displayName") }
        let found: PasskeyAccountRegistration?
        do {
            found = try await registrations.usableAccountRegistration(id: registrationID, now: clock.now)
        } catch {
            throw .init(error)
        }
        guard let registration = found else { throw .registrationUnavailable }
        do {
            return try await complete(
                registration, email: email, displayName: displayName, response: response, name: name,
                residentKey: residentKey, language: language, origin: origin)
        } catch {
            throw await answer(error, registrationID: registrationID, clientAddress: clientAddress)
        }
    }

    private func complete(
        _ registration: PasskeyAccountRegistration, email: EmailAddress, displayName: DisplayName,
        response: RegistrationResponse, name: PasskeyName?, residentKey: Bool?, language: MailLanguage,
        origin: RequestOrigin
    ) async throws(PasskeyAccountRegistrationFinishError) -> PasskeyAccountRegistrationFinish {
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
        let (stored, issued) = issuer.make(
            for: account, method: .passkey, credentialID: credential.id, userVerified: verified.userVerified, now: now)
        // The account was created with a passkey; its first session is the one that added it.
        let created = [
            events.event(.accountCreated(.passkey), accountID: account.id, sessionID: stored.id, at: now, from: origin),
            events.event(
                .passkeyAdded(.signUp, credentialID: credential.id), accountID: account.id, sessionID: stored.id,
                at: now, from: origin),
        ]
        let accountEmail = AccountEmail(accountID: account.id, email: email, language: language)
        let code = verification?.mail(to: email, language: language, now: now)
        let completed: Bool
        do {
            completed = try await store.transaction { tx async throws(RepositoryError) -> Bool in
                guard try await tx.accountRegistrations.complete(registration.id, at: now) else { return false }
                // The passkey before the email (contract v3): a registered credential answers
                // credential-exists whatever the email, so reusing one credential cannot test addresses.
                try await tx.accounts.insert(account)
                try await tx.passkeys.insert(credential)
                try await tx.accounts.insert(accountEmail)
                try await tx.sessions.insert(stored)
                if let code { try await tx.store(code, of: account.id, sentTo: email) }
                for event in created { try await tx.events.record(event) }
                return true
            }
        } catch {
            switch error {
            case .conflict(.emailTaken): throw .emailTaken
            case .conflict(.credentialExists): throw .credentialExists
            case .unavailable: throw .unavailable
            case .conflict, .accountGone, .sessionEnded, .failure: throw .internalFailure(cause: FailureCause(error))
            }
        }
        guard completed else { throw .registrationUnavailable }
        return PasskeyAccountRegistrationFinish(session: issued, credential: credential)
    }

    /// What a failure after the registration was found answers: a 4xx counts against the
    /// registration (the one past its last allowed failure answers `registrationUnavailable`,
    /// whichever of concurrent finishes that is), and an `emailTaken` against the client address's
    /// sign-up budget.
    private func answer(
        _ error: PasskeyAccountRegistrationFinishError, registrationID: RegistrationID, clientAddress: String
    ) async -> PasskeyAccountRegistrationFinishError {
        switch error {
        case .registrationMismatch, .verificationFailed, .emailTaken, .credentialExists, .rateLimited: break
        case .invalidRequest, .registrationUnavailable, .unavailable, .internalFailure: return error
        }
        do {
            guard try await registrations.recordFailedFinish(id: registrationID, now: clock.now) else {
                return .registrationUnavailable
            }
            guard case .emailTaken = error else { return error }
            if case .limited(let retryAfter) = try await limiter.checkSignup(clientAddress: clientAddress) {
                return .rateLimited(retryAfter: retryAfter)
            }
            return error
        } catch {
            return .init(error)
        }
    }
}
