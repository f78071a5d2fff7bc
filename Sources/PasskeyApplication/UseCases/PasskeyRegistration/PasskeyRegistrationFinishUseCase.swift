package import PasskeyDomain

/// Why adding a passkey failed.
package enum PasskeyRegistrationFinishError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    /// Unknown, expired, used, or another account's challenge.
    case challengeUnavailable
    case verificationFailed(CredentialVerificationFailure)
    case credentialExists
    /// The account was deleted under the request (401, as for a session that is gone).
    case unauthorized
    /// The account holds `MAX_PASSKEYS_PER_ACCOUNT` passkeys already; nothing was stored.
    case passkeyLimitReached
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// A passkey just added.
package struct PasskeyRegistrationFinish: Sendable {
    package let credential: PasskeyCredential
    package let mode: RegistrationMode
}

/// Verifies the authenticator's response and stores the passkey (WebAuthn L3 §7.1). The
/// challenge is consumed before verification, whatever the outcome; a failure never touches
/// the password session (slide 40). A stored passkey queues the `passkeyAdded` notice with it.
package struct PasskeyRegistrationFinishUseCase: Sendable {
    let registrations: any PasskeyRegistrationRepository
    let store: any UnitOfWork
    let verifier: any CredentialVerifier
    let names: any AuthenticatorNames
    let policy: PasskeyPolicy
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        registrations: any PasskeyRegistrationRepository, store: any UnitOfWork, verifier: any CredentialVerifier,
        names: any AuthenticatorNames, policy: PasskeyPolicy, notifier: SecurityNotifier = .off, clock: any WallClock,
        events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.registrations = registrations
        self.store = store
        self.verifier = verifier
        self.names = names
        self.policy = policy
        self.notifier = notifier
        self.clock = clock
    }

    package func execute(
        session: ActiveSession, challengeID: ChallengeID, response: RegistrationResponse, name: PasskeyName?,
        residentKey: Bool?, origin: RequestOrigin
    ) async throws(PasskeyRegistrationFinishError) -> PasskeyRegistrationFinish {
        let consumed: PasskeyRegistrationChallenge?
        do {
            consumed = try await registrations.consumeRegistrationChallenge(
                id: challengeID, accountID: session.account.id, now: clock.now)
        } catch {
            throw .init(error)
        }
        guard let challenge = consumed else { throw .challengeUnavailable }
        let now = clock.now
        let conditional = challenge.mode == .conditional
        let verified: VerifiedRegistration
        do {
            verified = try verifier.verifyRegistration(
                response,
                expectation: RegistrationExpectation(
                    challenge: challenge.challenge, requireUserPresence: !conditional,
                    requireUserVerification: !conditional && policy.requiresUserVerification, verificationTime: now))
        } catch {
            throw .verificationFailed(error)
        }
        let credential = verified.credential(
            accountID: session.account.id, response: response, name: name, residentKey: residentKey, names: names,
            createdAt: now)
        let event = events.event(
            .passkeyAdded(conditional ? .conditional : .modal, credentialID: credential.id),
            accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let addition: CredentialAddition
        do {
            addition = try await store.transaction { tx async throws(RepositoryError) -> CredentialAddition in
                // The account's lock serialises additions: the count below sees every one that
                // committed before, so N concurrent finishes one short of the limit add exactly one.
                guard let account = try await tx.accounts.lock(session.account.id) else { throw .accountGone }
                try await tx.requireLive(session.session, at: now)
                guard try await tx.passkeys.list(account.id).count < policy.maxPasskeysPerAccount else {
                    return .limitReached
                }
                try await tx.passkeys.insert(credential)
                try await tx.queue(notifier.mail(.passkeyAdded, for: account, at: now, from: origin))
                try await tx.events.record(event)
                return .added
            }
        } catch {
            switch error {
            case .conflict(.credentialExists): throw .credentialExists
            case .unavailable: throw .unavailable
            case .accountGone, .sessionEnded: throw .unauthorized
            case .conflict, .failure: throw .internalFailure(cause: FailureCause(error))
            }
        }
        guard addition == .added else { throw .passkeyLimitReached }
        return PasskeyRegistrationFinish(credential: credential, mode: challenge.mode)
    }
}
