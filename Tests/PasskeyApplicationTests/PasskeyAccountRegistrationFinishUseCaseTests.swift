import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Passkey sign-up, finish: only a successful finish completes the registration (account, email,
/// passkey and first session together); every other failure leaves it usable for a retry.
@Suite struct PasskeyAccountRegistrationFinishUseCaseTests {
    struct Fixture {
        let registrations = InMemoryStore()
        let verifier = ScriptedCredentialVerifier()
        let tokens = SequentialTokenGenerator()
        let random = SequentialRandomGenerator()
        let clock = FixedClock()
        let rateLimits = InMemoryRateLimitRepository()
        var policy = PasskeyPolicy(sessionLifetime: 7200)
        var signupLimit = 0

        var useCase: PasskeyAccountRegistrationFinishUseCase {
            PasskeyAccountRegistrationFinishUseCase(
                registrations: registrations, store: registrations, verifier: verifier,
                names: FixedAuthenticatorNames(),
                issuer: SessionIssuer(tokens: tokens, random: random, lifetime: policy.sessionLifetime),
                limiter: AddressRateLimiter(repository: rateLimits, limitPerMinute: 0, signupLimit: signupLimit),
                policy: policy, clock: clock)
        }

        /// A stored registration, with email and name as the form flow records them (nil: the sheet's).
        func registration(email: String? = nil, displayName: String? = nil, lifetime: TimeInterval = 300)
            async throws -> PasskeyAccountRegistration
        {
            let registration = PasskeyAccountRegistration(
                prospectiveAccountID: AccountID(), email: email.flatMap(EmailAddress.init),
                displayName: displayName.flatMap(DisplayName.init), challenge: DomainFixtures.challenge(),
                expiresAt: clock.now.addingTimeInterval(lifetime))
            try await registrations.saveAccountRegistration(registration)
            return registration
        }

        func finish(
            _ id: RegistrationID, email: String = "mika@example.com", displayName: String = "Mika",
            credentialID: [UInt8] = [7, 7, 7], name: PasskeyName? = nil
        ) async throws(PasskeyAccountRegistrationFinishError) -> PasskeyAccountRegistrationFinish {
            try await useCase.execute(
                registrationID: id, email: email, displayName: displayName,
                response: RegistrationResponse(
                    credentialID: credentialID, clientDataJSON: [0x7B, 0x7D], attestationObject: [0xA0],
                    transports: ["hybrid"]),
                name: name, residentKey: true, clientAddress: "192.0.2.7")
        }

        /// What one completed registration wrote: its account, address, passkey and first session.
        struct Created {
            let account: Account
            let email: AccountEmail
            let credential: PasskeyCredential
            let session: AuthenticationSession
        }

        /// What every completed registration wrote (accounts with a passkey and a session).
        var created: [Created] {
            let tables = registrations.tables
            return tables.accounts.values.compactMap { account in
                guard let email = tables.emails[account.id], let credential = tables.passkeys(of: account.id).first,
                    let session = tables.sessions.values.first(where: { $0.accountID == account.id })
                else { return nil }
                return Created(account: account, email: email, credential: credential, session: session)
            }
        }

        /// An account elsewhere has this address.
        func takeEmail(_ address: String) { registrations.addAccount(email: address) }

        /// A passkey of another account has this credential ID.
        func registerCredentialID(_ id: CredentialID) {
            registrations.add(DomainFixtures.passkey(id: id, accountID: registrations.addAccount().id))
        }

        /// How many failing finishes were recorded for a registration.
        func failedFinishes(id: RegistrationID) -> Int {
            registrations.tables.accountRegistrations[id]?.failedFinishes ?? 0
        }

        /// Whether the registration can still be finished.
        func isUsable(_ id: RegistrationID) async throws -> Bool {
            try await registrations.usableAccountRegistration(id: id, now: clock.now) != nil
        }
    }

    @Test func aVerifiedPasskeyCreatesTheAccountWithItsFirstPasskeySession() async throws {
        let f = Fixture()
        let registration = try await f.registration(email: "Mika@Example.com", displayName: "Mika")
        let finish = try await f.finish(registration.id, email: "mika@example.com", name: PasskeyName("Laptop"))

        let expectation = try #require(f.verifier.registrationExpectations.first)
        #expect(expectation.challenge == registration.challenge)
        #expect(expectation.requireUserPresence)
        #expect(expectation.requireUserVerification)
        #expect(f.registrations.tables.accountRegistrations[registration.id]?.completedAt == f.clock.now)
        let created = try #require(f.created.first)
        #expect(f.created.count == 1)
        #expect(created.account.id == registration.prospectiveAccountID)
        #expect(created.account.displayName.value == "Mika")
        #expect(created.account.createdAt == f.clock.now)
        #expect(created.email.accountID == created.account.id)
        #expect(created.email.email.value == "mika@example.com")
        #expect(created.credential == finish.credential)
        #expect(created.credential.accountID == created.account.id)
        #expect(created.credential.name.value == "Laptop")
        #expect(created.credential.transports == ["hybrid"])
        #expect(created.session.method == .passkey)
        #expect(created.session.credentialID == created.credential.id)
        #expect(created.session.accountID == created.account.id)
        #expect(created.session.expiresAt == f.clock.now.addingTimeInterval(7200))
        #expect(finish.session.account == created.account)
        #expect(finish.session.method == .passkey)
        #expect(finish.session.expiresAt == created.session.expiresAt)
        #expect(SequentialTokenGenerator.digest(of: finish.session.accessToken) == created.session.tokenDigest)
        // account.created (passkey) and passkey.added (sign-up), both by the first session.
        #expect(
            f.registrations.events.map(\.activity) == [
                .accountCreated(.passkey), .passkeyAdded(.signUp, credentialID: created.credential.id),
            ])
        #expect(f.registrations.events.allSatisfy { $0.sessionID == created.session.id })
    }

    @Test func aPreferredPolicyDoesNotDemandVerification() async throws {
        var f = Fixture()
        f.policy.userVerification = .preferred
        _ = try await f.finish(try await f.registration().id)
        let expectation = try #require(f.verifier.registrationExpectations.first)
        #expect(expectation.requireUserPresence)
        #expect(!expectation.requireUserVerification)
    }

    @Test func theSystemSheetFlowTakesTheEmailAndNameGivenAtFinish() async throws {
        let f = Fixture()
        let registration = try await f.registration()
        let finish = try await f.finish(registration.id, email: "ren@example.com", displayName: "Ren")
        #expect(finish.session.account.displayName.value == "Ren")
        #expect(f.created.first?.email.email.value == "ren@example.com")
    }

    @Test(arguments: [("no at sign", "Mika", "email"), ("mika@example.com", "", "displayName")])
    func aMalformedFieldIsRefusedAndTheRegistrationStaysUsable(email: String, displayName: String, field: String)
        async throws
    {
        let f = Fixture()
        let registration = try await f.registration()
        await #expect(throws: PasskeyAccountRegistrationFinishError.invalidRequest(field: field)) {
            try await f.finish(registration.id, email: email, displayName: displayName)
        }
        #expect(f.verifier.registrationExpectations.isEmpty)
        #expect(try await f.isUsable(registration.id))
    }

    @Test func anUnknownRegistrationIsUnavailable() async throws {
        let f = Fixture()
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationUnavailable) {
            try await f.finish(RegistrationID())
        }
        #expect(f.verifier.registrationExpectations.isEmpty)
    }

    @Test func anExpiredRegistrationIsUnavailable() async throws {
        let f = Fixture()
        let registration = try await f.registration(lifetime: 30)
        f.clock.advance(by: 30)
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationUnavailable) {
            try await f.finish(registration.id)
        }
        #expect(f.created.isEmpty)
    }

    @Test func aCompletedRegistrationIsUnavailable() async throws {
        let f = Fixture()
        let registration = try await f.registration()
        _ = try await f.finish(registration.id)
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationUnavailable) {
            try await f.finish(registration.id, email: "other@example.com", credentialID: [8])
        }
        #expect(f.created.count == 1)
    }

    @Test func aRegistrationCompletedByAConcurrentFinishIsUnavailable() async throws {
        let f = Fixture()
        let registration = try await f.registration()
        let now = f.clock.now
        f.registrations.raceNextTransaction { $0.accountRegistrations[registration.id]?.completedAt = now }
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationUnavailable) {
            try await f.finish(registration.id)
        }
        #expect(f.created.isEmpty)
    }

    @Test(arguments: [("other@example.com", "Mika"), ("mika@example.com", "Someone Else")])
    func anEmailOrNameOtherThanTheStartsIsAMismatchAndNothingIsVerified(email: String, displayName: String)
        async throws
    {
        let f = Fixture()
        let registration = try await f.registration(email: "mika@example.com", displayName: "Mika")
        await #expect(throws: PasskeyAccountRegistrationFinishError.registrationMismatch) {
            try await f.finish(registration.id, email: email, displayName: displayName)
        }
        #expect(f.verifier.registrationExpectations.isEmpty)
        #expect(try await f.isUsable(registration.id))
    }

    @Test func aRefusedPasskeyIsAVerificationFailureAndTheRegistrationStaysUsable() async throws {
        let f = Fixture()
        let registration = try await f.registration()
        f.verifier.refuseRegistrations(.rpIdHashMismatch)
        await #expect(throws: PasskeyAccountRegistrationFinishError.verificationFailed(.rpIdHashMismatch)) {
            try await f.finish(registration.id)
        }
        #expect(try await f.isUsable(registration.id))
        #expect(f.created.isEmpty)
    }

    @Test func aTakenEmailIsAConflictAndAnotherEmailMayBeTriedWithTheSameRegistration() async throws {
        let f = Fixture()
        f.takeEmail("mika@example.com")
        let registration = try await f.registration()
        await #expect(throws: PasskeyAccountRegistrationFinishError.emailTaken) {
            try await f.finish(registration.id, email: "Mika@Example.com")
        }
        #expect(try await f.isUsable(registration.id))
        let finish = try await f.finish(registration.id, email: "mika.sato@example.com")
        #expect(finish.session.account.id == registration.prospectiveAccountID)
    }

    @Test func aRegisteredCredentialIsAConflictAndTheRegistrationStaysUsable() async throws {
        let f = Fixture()
        let taken = DomainFixtures.credentialID([7, 7, 7])
        f.registerCredentialID(taken)
        let registration = try await f.registration()
        await #expect(throws: PasskeyAccountRegistrationFinishError.credentialExists) {
            try await f.finish(registration.id, credentialID: taken.bytes)
        }
        #expect(try await f.isUsable(registration.id))
        #expect(f.created.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        let registration = try await f.registration()
        f.registrations.failNext(.unavailable)
        await #expect(throws: PasskeyAccountRegistrationFinishError.unavailable) { try await f.finish(registration.id) }
        f.registrations.failNext(.scripted("usableAccountRegistration"))
        await #expect(
            throws: PasskeyAccountRegistrationFinishError.internalFailure(cause: .scripted("usableAccountRegistration"))
        ) {
            try await f.finish(registration.id)
        }
        // The look-up succeeds, then the write fails.
        let failures: [(RepositoryError, PasskeyAccountRegistrationFinishError)] = [
            (.unavailable, .unavailable),
            (
                .scripted("complete"),
                .internalFailure(cause: .scripted("complete"))
            ),
            (
                .conflict(.other("accounts_pkey")),
                .internalFailure(cause: FailureCause(RepositoryError.conflict(.other("accounts_pkey"))))
            ),
        ]
        for (failure, expected) in failures {
            f.registrations.failNext(failure, afterCalls: 1)  // after the look-up, at the completion
            await #expect(throws: expected) { try await f.finish(registration.id) }
        }
        #expect(f.verifier.registrationExpectations.count == 3)
        #expect(try await f.isUsable(registration.id))
        #expect(f.created.isEmpty && f.registrations.events.isEmpty)
    }
}
