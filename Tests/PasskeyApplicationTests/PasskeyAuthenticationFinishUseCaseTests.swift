import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Passkey sign-in, finish, branch by branch: one read, verification, one write that consumes
/// the challenge with the session; failures after the read consume the challenge on their own.
@Suite struct PasskeyAuthenticationFinishUseCaseTests {
    private struct Fixture {
        let authentications = InMemoryPasskeyAuthenticationRepository()
        let verifier = ScriptedCredentialVerifier()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        let passkey: PasskeyCredential
        let challenge: PasskeyAuthenticationChallenge
        var policy = PasskeyPolicy(sessionLifetime: 3_600)

        init() async throws {
            passkey = DomainFixtures.passkey(accountID: account.id, signCount: 7, backupEligible: false)
            challenge = PasskeyAuthenticationChallenge(
                challenge: DomainFixtures.challenge(), expiresAt: clock.now.addingTimeInterval(300))
            authentications.register(passkey, account: account)
            try await authentications.saveAuthenticationChallenge(challenge)
            verifier.acceptAuthentications(as: ScriptedCredentialVerifier.verifiedAuthentication(signCount: 8))
        }

        var useCase: PasskeyAuthenticationFinishUseCase {
            PasskeyAuthenticationFinishUseCase(
                authentications: authentications, verifier: verifier,
                issuer: SessionIssuer(
                    tokens: SequentialTokenGenerator(), random: SequentialRandomGenerator(),
                    lifetime: policy.sessionLifetime),
                policy: policy, clock: clock)
        }

        func response(credentialID: CredentialID? = nil) -> AuthenticationResponse {
            AuthenticationResponse(
                credentialID: credentialID ?? passkey.id, clientDataJSON: Array("{}".utf8),
                authenticatorData: [0x05], signature: [0x30], userHandle: account.id.userHandle.bytes)
        }

        func finish(challengeID: ChallengeID? = nil, credentialID: CredentialID? = nil) async
            -> Result<PasskeyAuthenticationFinish, PasskeyAuthenticationFinishError>
        {
            do {
                return .success(
                    try await useCase.execute(
                        challengeID: challengeID ?? challenge.id, response: response(credentialID: credentialID)))
            } catch {
                return .failure(error)
            }
        }

        var consumed: Bool { authentications.challenges.first { $0.id == challenge.id }?.consumedAt != nil }
    }

    private func failure(_ result: Result<PasskeyAuthenticationFinish, PasskeyAuthenticationFinishError>)
        -> PasskeyAuthenticationFinishError?
    {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test func aVerifiedAssertionConsumesTheChallengeAndOpensAPasskeySession() async throws {
        let f = try await Fixture()
        let done = try await f.useCase.execute(
            challengeID: f.challenge.id, response: f.response(), origin: .example)
        #expect(done.session.method == .passkey)
        #expect(done.session.account == f.account)
        #expect(done.credentialID == f.passkey.id)
        #expect(!done.cloneWarning)
        #expect(f.consumed)
        #expect(f.authentications.sessions.map(\.credentialID) == [f.passkey.id])
        #expect(f.authentications.sessions.first?.expiresAt == f.clock.now.addingTimeInterval(3_600))
        #expect(f.authentications.credential(id: f.passkey.id)?.signCount == 8)
        #expect(f.authentications.credential(id: f.passkey.id)?.lastUsedAt == f.clock.now)
        // Its sign-in event, in the same write: the passkey, the session it created, the client.
        let event = try #require(f.authentications.events.first)
        #expect(f.authentications.events.count == 1)
        #expect(event.activity == .signIn(.passkey, credentialID: f.passkey.id))
        #expect(event.sessionID == f.authentications.sessions.first?.id)
        #expect(event.occurredAt == f.clock.now)
        #expect(event.clientAddress == RequestOrigin.example.clientAddress)
        #expect(event.userAgent == RequestOrigin.example.userAgent)
        // What verification was asked to demand.
        let expectation = try #require(f.verifier.authenticationExpectations.first)
        #expect(expectation.challenge == f.challenge.challenge)
        #expect(expectation.publicKey == f.passkey.publicKey)
        #expect(expectation.storedSignCount == 7)
        #expect(expectation.storedBackupEligible == false)
        #expect(expectation.expectedUserHandle == f.account.id.userHandle)
        #expect(expectation.requireUserHandle)
        #expect(expectation.requireUserVerification)
        // Used up: the same finish again is refused.
        #expect(failure(await f.finish()) == .challengeUnavailable)
    }

    @Test func userVerificationFollowsThePolicy() async throws {
        var f = try await Fixture()
        f.policy = PasskeyPolicy(userVerification: .preferred)
        _ = try await f.useCase.execute(challengeID: f.challenge.id, response: f.response())
        #expect(f.verifier.authenticationExpectations.first?.requireUserVerification == false)
    }

    @Test func anUnknownExpiredOrUsedChallengeIsRefusedBeforeVerificationAndWritesNothing() async throws {
        let f = try await Fixture()
        #expect(failure(await f.finish(challengeID: ChallengeID())) == .challengeUnavailable)
        f.clock.advance(by: 301)
        #expect(failure(await f.finish()) == .challengeUnavailable)
        #expect(!f.consumed)
        #expect(f.verifier.authenticationExpectations.isEmpty)
        #expect(f.authentications.sessions.isEmpty)
        #expect(f.authentications.events.isEmpty)
    }

    @Test func anUnknownCredentialUsesTheChallengeUp() async throws {
        let f = try await Fixture()
        let stranger = DomainFixtures.credentialID()
        #expect(failure(await f.finish(credentialID: stranger)) == .unknownCredential)
        #expect(f.consumed)
        #expect(f.verifier.authenticationExpectations.isEmpty)
        #expect(failure(await f.finish()) == .challengeUnavailable)
    }

    @Test func aRefusedAssertionUsesTheChallengeUpAndNamesTheReason() async throws {
        let f = try await Fixture()
        f.verifier.refuseAuthentications(.signatureInvalid)
        #expect(failure(await f.finish()) == .authenticationFailed(.signatureInvalid))
        #expect(f.consumed)
        #expect(f.authentications.sessions.isEmpty)
        #expect(f.authentications.events.isEmpty)
    }

    @Test func aFinishThatLosesTheRaceForItsChallengeGetsNoSession() async throws {
        let f = try await Fixture()
        // Another finish consumed the challenge between this one's read and its write.
        let context = try await f.authentications.assertionContext(
            challengeID: f.challenge.id, credentialID: f.passkey.id, now: f.clock.now)
        #expect(context.challenge != nil)
        #expect(f.authentications.consumeAsConcurrentFinish(id: f.challenge.id, now: f.clock.now))
        #expect(failure(await f.finish()) == .challengeUnavailable)
        #expect(f.authentications.sessions.isEmpty)
    }

    /// One verdict per challenge: concurrent finishes can all read it before any consumes it;
    /// a failing one that then finds it consumed by another answers as if it had come later.
    @Test func aFailureThatLosesTheRaceForItsChallengeAnswersChallengeUnavailable() async throws {
        let f = try await Fixture()
        f.verifier.refuseAuthentications(.signatureInvalid)
        let racing = SessionRaceVerifier(
            inner: f.verifier, authentications: f.authentications, challengeID: f.challenge.id)
        let useCase = PasskeyAuthenticationFinishUseCase(
            authentications: f.authentications, verifier: racing,
            issuer: SessionIssuer(
                tokens: SequentialTokenGenerator(), random: SequentialRandomGenerator(), lifetime: 60),
            policy: f.policy, clock: f.clock)
        await #expect(throws: PasskeyAuthenticationFinishError.challengeUnavailable) {
            try await useCase.execute(challengeID: f.challenge.id, response: f.response())
        }
        #expect(f.consumed)
        #expect(f.authentications.sessions.isEmpty)
    }

    @Test func aCounterMovedByAConcurrentAssertionIsRefused() async throws {
        let f = try await Fixture()
        f.authentications.setStaleCounter(true)
        #expect(failure(await f.finish()) == .authenticationFailed(.signCountRegressed))
        #expect(f.consumed)
        #expect(f.authentications.sessions.isEmpty)
    }

    @Test func aSyncedPasskeysCloneWarningIsPassedOn() async throws {
        let f = try await Fixture()
        f.verifier.acceptAuthentications(as: ScriptedCredentialVerifier.verifiedAuthentication(cloneWarning: true))
        let done = try await f.useCase.execute(challengeID: f.challenge.id, response: f.response())
        #expect(done.cloneWarning)
    }

    @Test func repositoryFailuresAreUnavailableOrInternalWithTheirCause() async throws {
        let f = try await Fixture()
        f.authentications.failNext(.unavailable)
        #expect(failure(await f.finish()) == .unavailable)
        f.authentications.failNext(.scripted("assertionContext"))
        #expect(failure(await f.finish()) == .internalFailure(cause: .scripted("assertionContext")))
        f.authentications.failNextRecording(.unavailable)
        #expect(failure(await f.finish()) == .unavailable)
        #expect(f.authentications.sessions.isEmpty)
        // The write failed, so the challenge is still there for a retry.
        #expect(!f.consumed)
        #expect(
            try await f.useCase.execute(challengeID: f.challenge.id, response: f.response()).session.method == .passkey)
    }
}

/// A verifier that lets another finish consume the challenge while this one verifies, then
/// answers like `inner`.
private struct SessionRaceVerifier: CredentialVerifier {
    let inner: ScriptedCredentialVerifier
    let authentications: InMemoryPasskeyAuthenticationRepository
    let challengeID: ChallengeID

    func verifyRegistration(_ response: RegistrationResponse, expectation: RegistrationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedRegistration
    {
        try inner.verifyRegistration(response, expectation: expectation)
    }

    func verifyAuthentication(_ response: AuthenticationResponse, expectation: AuthenticationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedAuthentication
    {
        authentications.consumeAsConcurrentFinish(id: challengeID, now: Date(timeIntervalSince1970: 0))
        return try inner.verifyAuthentication(response, expectation: expectation)
    }
}
