import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Adding a passkey, finish: the challenge is consumed once by its own account whatever the
/// verification says, UP and UV are demanded by mode and policy, and the passkey is stored with
/// its name.
@Suite struct PasskeyRegistrationFinishUseCaseTests {
    private static let aaguid = AAGUID(string: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4")!

    private struct Fixture {
        let registrations = InMemoryPasskeyRegistrationRepository()
        let store = InMemoryStore()
        let verifier = ScriptedCredentialVerifier()
        let clock = FixedClock()
        let account: Account
        var policy = PasskeyPolicy(reauthenticationWindow: 600)

        init() { account = store.addAccount() }

        var useCase: PasskeyRegistrationFinishUseCase {
            PasskeyRegistrationFinishUseCase(
                registrations: registrations, store: store, verifier: verifier,
                names: FixedAuthenticatorNames([PasskeyRegistrationFinishUseCaseTests.aaguid: "Google Password Manager"]
                ),
                policy: policy, clock: clock)
        }

        var session: ActiveSession { .signedIn(account, at: clock.now, in: store) }

        /// A stored challenge of `accountID` (the fixture's account by default).
        func challenge(_ mode: RegistrationMode = .modal, of accountID: AccountID? = nil, lifetime: TimeInterval = 300)
            async throws -> PasskeyRegistrationChallenge
        {
            let challenge = PasskeyRegistrationChallenge(
                accountID: accountID ?? account.id, challenge: DomainFixtures.challenge(), mode: mode,
                expiresAt: clock.now.addingTimeInterval(lifetime))
            try await registrations.saveRegistrationChallenge(challenge)
            return challenge
        }

        func finish(
            _ challengeID: ChallengeID, session: ActiveSession? = nil, credentialID: [UInt8] = [1, 2, 3],
            name: PasskeyName? = nil, residentKey: Bool? = true
        ) async throws(PasskeyRegistrationFinishError) -> PasskeyRegistrationFinish {
            try await useCase.execute(
                session: session ?? self.session, challengeID: challengeID,
                response: RegistrationResponse(
                    credentialID: credentialID, clientDataJSON: [0x7B, 0x7D], attestationObject: [0xA0],
                    transports: ["internal", "hybrid"]),
                name: name, residentKey: residentKey, origin: .example)
        }
    }

    @Test func aModalFinishDemandsPresenceAndVerificationAndStoresThePasskey() async throws {
        let f = Fixture()
        let challenge = try await f.challenge()
        let verified = ScriptedCredentialVerifier.verifiedRegistration(
            credentialID: DomainFixtures.credentialID([1, 2, 3]), aaguid: Self.aaguid, backupState: false)
        f.verifier.acceptRegistrations(as: verified)

        let session = f.session
        let finish = try await f.finish(
            challenge.id, session: session, name: PasskeyName("Work phone"), residentKey: true)

        #expect(finish.mode == .modal)
        #expect(f.registrations.challenge(id: challenge.id)?.consumedAt == f.clock.now)
        let expectation = try #require(f.verifier.registrationExpectations.first)
        #expect(expectation.challenge == challenge.challenge)
        #expect(expectation.requireUserPresence)
        #expect(expectation.requireUserVerification)
        #expect(expectation.verificationTime == f.clock.now)
        let stored = try #require(f.store.tables.passkeys.first)
        #expect(f.store.tables.passkeys.count == 1)
        #expect(stored == finish.credential)
        #expect(stored.id == verified.credentialID)
        #expect(stored.accountID == f.account.id)
        #expect(stored.publicKey == verified.publicKey)
        #expect(stored.algorithm == COSEAlgorithm.es256.rawValue)
        #expect(stored.aaguid == Self.aaguid)
        #expect(stored.backupEligible && !stored.backupState)
        #expect(stored.transports == ["internal", "hybrid"])
        #expect(stored.residentKey == true)
        #expect(stored.name.value == "Work phone")
        #expect(stored.createdAt == f.clock.now)
        #expect(stored.lastUsedAt == nil)
        // passkey.added (modal) with the passkey and the bearer session that added it.
        let event = try #require(f.store.events.first)
        #expect(f.store.events.count == 1)
        #expect(event.activity == .passkeyAdded(.modal, credentialID: stored.id))
        #expect(event.accountID == f.account.id)
        #expect(event.sessionID == session.session.id)
        #expect(event.occurredAt == f.clock.now)
        #expect(event.clientAddress == RequestOrigin.example.clientAddress)
    }

    @Test func aPreferredPolicyDoesNotDemandVerificationOfAModalFinish() async throws {
        var f = Fixture()
        f.policy.userVerification = .preferred
        let challenge = try await f.challenge()
        _ = try await f.finish(challenge.id)
        let expectation = try #require(f.verifier.registrationExpectations.first)
        #expect(expectation.requireUserPresence)
        #expect(!expectation.requireUserVerification)
    }

    @Test func aConditionalFinishDemandsNeitherPresenceNorVerification() async throws {
        let f = Fixture()
        let challenge = try await f.challenge(.conditional)
        let finish = try await f.finish(challenge.id)
        #expect(finish.mode == .conditional)
        #expect(
            f.store.events.map(\.activity) == [.passkeyAdded(.conditional, credentialID: finish.credential.id)])
        let expectation = try #require(f.verifier.registrationExpectations.first)
        #expect(!expectation.requireUserPresence)
        #expect(!expectation.requireUserVerification)
    }

    @Test func anUnnamedPasskeyIsNamedAfterAKnownAuthenticatorElsePasskey() async throws {
        let f = Fixture()
        f.verifier.acceptRegistrations(as: ScriptedCredentialVerifier.verifiedRegistration(aaguid: Self.aaguid))
        let known = try await f.finish(try await f.challenge().id)
        #expect(known.credential.name.value == "Google Password Manager")
        f.verifier.acceptRegistrations(as: ScriptedCredentialVerifier.verifiedRegistration(aaguid: .zero))
        let unknown = try await f.finish(try await f.challenge().id, residentKey: nil)
        #expect(unknown.credential.name.value == "Passkey")
        #expect(unknown.credential.residentKey == nil)
    }

    @Test func theFinishDoesNotAskForARecentSignInAgain() async throws {
        let f = Fixture()
        let challenge = try await f.challenge()
        let old = ActiveSession.signedIn(f.account, at: f.clock.now.addingTimeInterval(-3600), in: f.store)
        _ = try await f.finish(challenge.id, session: old)
        #expect(f.store.tables.passkeys.count == 1)
    }

    @Test func anUnknownChallengeIsUnavailableAndNothingIsVerified() async throws {
        let f = Fixture()
        await #expect(throws: PasskeyRegistrationFinishError.challengeUnavailable) { try await f.finish(ChallengeID()) }
        #expect(f.verifier.registrationExpectations.isEmpty)
        #expect(f.store.tables.passkeys.isEmpty)
    }

    @Test func anExpiredChallengeIsUnavailable() async throws {
        let f = Fixture()
        let challenge = try await f.challenge(lifetime: 60)
        f.clock.advance(by: 60)
        await #expect(throws: PasskeyRegistrationFinishError.challengeUnavailable) { try await f.finish(challenge.id) }
        #expect(f.verifier.registrationExpectations.isEmpty)
    }

    @Test func aUsedChallengeIsUnavailable() async throws {
        let f = Fixture()
        let challenge = try await f.challenge()
        _ = try await f.finish(challenge.id)
        await #expect(throws: PasskeyRegistrationFinishError.challengeUnavailable) {
            try await f.finish(challenge.id, credentialID: [4, 5, 6])
        }
        #expect(f.store.tables.passkeys.count == 1)
    }

    @Test func anotherAccountsChallengeIsUnavailableAndStaysUsableForItsOwner() async throws {
        let f = Fixture()
        let owner = f.store.addAccount()
        let challenge = try await f.challenge(of: owner.id)
        await #expect(throws: PasskeyRegistrationFinishError.challengeUnavailable) { try await f.finish(challenge.id) }
        #expect(f.registrations.challenge(id: challenge.id)?.consumedAt == nil)
        let finish = try await f.finish(challenge.id, session: .signedIn(owner, at: f.clock.now, in: f.store))
        #expect(finish.credential.accountID == owner.id)
    }

    @Test(arguments: [
        CredentialVerificationFailure.userPresentFlagNotSet, .userVerifiedFlagNotSet, .originMismatch,
        .challengeMismatch, .credentialIdMismatch, .untrustedAttestation, .malformedAttestationObject,
    ])
    func aRefusedResponseIsAVerificationFailureWithItsReasonAndConsumesTheChallenge(
        reason: CredentialVerificationFailure
    ) async throws {
        let f = Fixture()
        let challenge = try await f.challenge()
        f.verifier.refuseRegistrations(reason)
        await #expect(throws: PasskeyRegistrationFinishError.verificationFailed(reason)) {
            try await f.finish(challenge.id)
        }
        #expect(f.store.tables.passkeys.isEmpty)
        // Consumed before verification: a retry with the same challenge cannot pass.
        f.verifier.acceptRegistrations(as: ScriptedCredentialVerifier.verifiedRegistration())
        await #expect(throws: PasskeyRegistrationFinishError.challengeUnavailable) { try await f.finish(challenge.id) }
    }

    @Test func aCredentialRegisteredAlreadyIsAConflict() async throws {
        let f = Fixture()
        let existing = DomainFixtures.passkey(accountID: DomainFixtures.account().id)
        f.store.add(existing)
        f.verifier.acceptRegistrations(as: ScriptedCredentialVerifier.verifiedRegistration(credentialID: existing.id))
        await #expect(throws: PasskeyRegistrationFinishError.credentialExists) {
            try await f.finish(try await f.challenge().id)
        }
        #expect(f.store.tables.passkeys == [existing])
        #expect(f.store.events.isEmpty)  // a refused change writes no event
    }

    @Test func aFinishBeyondThePasskeyLimitStoresNothingAndConsumesTheChallenge() async throws {
        var f = Fixture()
        f.policy.maxPasskeysPerAccount = 2
        f.store.add(DomainFixtures.passkey(id: DomainFixtures.credentialID([9]), accountID: f.account.id))
        // Another account's passkeys do not count against this one's.
        f.store.add(DomainFixtures.passkey(id: DomainFixtures.credentialID([8]), accountID: AccountID()))
        f.store.add(DomainFixtures.passkey(id: DomainFixtures.credentialID([7]), accountID: AccountID()))
        f.verifier.acceptRegistrations(
            as: ScriptedCredentialVerifier.verifiedRegistration(credentialID: DomainFixtures.credentialID([1])))
        _ = try await f.finish(try await f.challenge().id, credentialID: [1])
        #expect(f.store.tables.passkeys.count(where: { $0.accountID == f.account.id }) == 2)

        f.verifier.acceptRegistrations(
            as: ScriptedCredentialVerifier.verifiedRegistration(credentialID: DomainFixtures.credentialID([2])))
        let challenge = try await f.challenge()
        await #expect(throws: PasskeyRegistrationFinishError.passkeyLimitReached) {
            try await f.finish(challenge.id, credentialID: [2])
        }
        #expect(f.store.tables.passkeys.count(where: { $0.accountID == f.account.id }) == 2)
        #expect(!f.store.tables.passkeys.contains { $0.id == DomainFixtures.credentialID([2]) })
        #expect(f.registrations.challenge(id: challenge.id)?.consumedAt == f.clock.now)
        #expect(f.store.events.count == 1)  // the first finish only
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        f.registrations.failNext(.unavailable)
        await #expect(throws: PasskeyRegistrationFinishError.unavailable) { try await f.finish(ChallengeID()) }
        f.registrations.failNext(.scripted("consumeRegistrationChallenge"))
        await #expect(
            throws: PasskeyRegistrationFinishError.internalFailure(cause: .scripted("consumeRegistrationChallenge"))
        ) {
            try await f.finish(ChallengeID())
        }
        // In the transaction: after the account's lock and the count, the insert fails.
        f.store.failNext(.unavailable, afterCalls: 2)
        await #expect(throws: PasskeyRegistrationFinishError.unavailable) {
            try await f.finish(try await f.challenge().id)
        }
        f.store.failNext(.scripted("insert"), afterCalls: 2)
        await #expect(throws: PasskeyRegistrationFinishError.internalFailure(cause: .scripted("insert"))) {
            try await f.finish(try await f.challenge().id)
        }
        f.store.failNext(.conflict(.emailTaken), afterCalls: 2)
        await #expect(
            throws: PasskeyRegistrationFinishError.internalFailure(
                cause: FailureCause(RepositoryError.conflict(.emailTaken)))
        ) {
            try await f.finish(try await f.challenge().id)
        }
        #expect(f.store.tables.passkeys.isEmpty)
        #expect(f.store.events.isEmpty && f.store.outbox.isEmpty)
    }

    @Test func anAccountDeletedUnderTheFinishIsUnauthorized() async throws {
        let f = Fixture()
        let challenge = try await f.challenge()
        f.verifier.acceptRegistrations(as: ScriptedCredentialVerifier.verifiedRegistration())
        f.store.update { $0.accounts[f.account.id] = nil }
        await #expect(throws: PasskeyRegistrationFinishError.unauthorized) { try await f.finish(challenge.id) }
        #expect(f.store.tables.passkeys.isEmpty)
    }
}
