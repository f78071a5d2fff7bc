import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import PasskeyTestSupport
import PasskeyWebAuthn
import Testing

/// WebAuthn L3 §7.2: one test per rule, each changing one field and expecting one reason.
@Suite struct AuthenticationRuleTests {
    let fixture = VerifierFixture()

    @Test(arguments: [COSEAlgorithm.es256, .es384, .es512, .edDSA, .rs256, .ps256, .rs384, .ps384])
    func validAssertionVerifies(_ algorithm: COSEAlgorithm) throws {
        let builder = try fixture.assertion(algorithm)
        let result = try fixture.authenticate(builder).get()
        #expect(result.algorithm == algorithm)
        #expect(result.signCount == 1)
        #expect(result.userPresent && result.userVerified)
        #expect(!result.cloneWarning)
    }

    @Test func missingUserHandleIsRefusedWhenRequired() throws {
        var builder = try fixture.assertion()
        let expectation = try fixture.authenticationExpectation(for: builder)
        builder.userHandle = nil
        #expect(try fixture.authenticate(builder, expectation: expectation) == .failure(.userHandleMissing))
    }

    @Test func userHandleMustBeTheOwners() throws {
        var builder = try fixture.assertion()
        let expectation = try fixture.authenticationExpectation(for: builder)
        builder.userHandle = [UInt8](repeating: 9, count: 16)
        #expect(try fixture.authenticate(builder, expectation: expectation) == .failure(.userHandleMismatch))
    }

    @Test func typeMustBeGet() throws {
        var builder = try fixture.assertion()
        builder.clientData.type = "webauthn.create"
        #expect(try fixture.authenticate(builder) == .failure(.typeMismatch))
    }

    @Test func challengeMustMatch() throws {
        var builder = try fixture.assertion()
        builder.clientData.challenge = Base64URL.encode([1, 2, 3])
        #expect(try fixture.authenticate(builder) == .failure(.challengeMismatch))
    }

    @Test func originMustBeAllowed() throws {
        var builder = try fixture.assertion()
        builder.clientData.origin = "https://example.com.evil"
        #expect(try fixture.authenticate(builder) == .failure(.originMismatch))
    }

    @Test func crossOriginAndTopOriginAreRefused() throws {
        var builder = try fixture.assertion()
        builder.clientData.crossOrigin = true
        #expect(try fixture.authenticate(builder) == .failure(.crossOriginNotAllowed))
        builder.clientData.crossOrigin = false
        builder.clientData.topOrigin = "https://top.example"
        #expect(try fixture.authenticate(builder) == .failure(.topOriginNotAllowed))
    }

    @Test func rpIdHashMustMatch() throws {
        var builder = try fixture.assertion()
        builder.relyingPartyIDHash = Digest.sha256(Array("https://example.com/app-id.json".utf8))
        #expect(try fixture.authenticate(builder) == .failure(.rpIdHashMismatch))
    }

    @Test func userPresenceIsAlwaysRequired() throws {
        var builder = try fixture.assertion()
        builder.flags.userPresent = false
        #expect(try fixture.authenticate(builder) == .failure(.userPresentFlagNotSet))
    }

    @Test func userVerificationPerExpectation() throws {
        var builder = try fixture.assertion()
        builder.flags.userVerified = false
        #expect(try fixture.authenticate(builder) == .failure(.userVerifiedFlagNotSet))
        let preferred = try fixture.authenticationExpectation(for: builder, requireUserVerification: false)
        #expect(throws: Never.self) { try fixture.authenticate(builder, expectation: preferred).get() }
    }

    @Test func backupStateNeedsEligibility() throws {
        var builder = try fixture.assertion()
        builder.flags.backupState = true
        #expect(try fixture.authenticate(builder) == .failure(.backupStateWithoutEligibility))
    }

    @Test func backupEligibilityMustNotChange() throws {
        var builder = try fixture.assertion()
        builder.flags.backupEligible = true
        #expect(try fixture.authenticate(builder) == .failure(.backupEligibilityChanged))
        let unknown = try fixture.authenticationExpectation(for: builder, storedBackupEligible: nil)
        #expect(throws: Never.self) { try fixture.authenticate(builder, expectation: unknown).get() }
    }

    @Test func corruptedSignatureIsInvalid() throws {
        var builder = try fixture.assertion()
        builder.corruptSignature = true
        #expect(try fixture.authenticate(builder) == .failure(.signatureInvalid))
    }

    @Test func signatureByAnotherKeyIsInvalid() throws {
        let builder = try fixture.assertion()
        var expectation = try fixture.authenticationExpectation(for: builder)
        expectation.publicKey = try SoftwareAuthenticatorKey.generate(.es256).coseKey().encoded
        #expect(try fixture.authenticate(builder, expectation: expectation) == .failure(.signatureInvalid))
    }

    @Test func alteredAuthenticatorDataBreaksTheSignature() throws {
        let builder = try fixture.assertion()
        var response = try builder.makeResponse()
        response.authenticatorData[33...36] = [0, 0, 0, 9]
        let expectation = try fixture.authenticationExpectation(for: builder)
        #expect(throws: CredentialVerificationFailure.signatureInvalid) {
            try fixture.verifier().verifyAuthentication(response, expectation: expectation)
        }
    }

    @Test(arguments: [(UInt32(5), UInt32(5)), (7, 5), (1, 0)])
    func deviceBoundCounterMustIncrease(stored: UInt32, new: UInt32) throws {
        var builder = try fixture.assertion()
        builder.signCount = new
        let expectation = try fixture.authenticationExpectation(for: builder, storedSignCount: stored)
        #expect(try fixture.authenticate(builder, expectation: expectation) == .failure(.signCountRegressed))
    }

    @Test func zeroCountersAreAccepted() throws {
        var builder = try fixture.assertion()
        builder.signCount = 0
        let result = try fixture.authenticate(builder).get()
        #expect(!result.cloneWarning)
    }

    @Test func syncedCredentialWithStaleCounterIsAcceptedWithCloneWarning() throws {
        var builder = try fixture.assertion()
        builder.flags.backupEligible = true
        builder.signCount = 3
        let expectation = try fixture.authenticationExpectation(
            for: builder, storedSignCount: 4, storedBackupEligible: true)
        let result = try fixture.authenticate(builder, expectation: expectation).get()
        #expect(result.cloneWarning)
    }

    @Test(arguments: [[UInt8](repeating: 0, count: 36), [UInt8](repeating: 0, count: 38)])
    func malformedAuthenticatorDataIsRefused(_ bytes: [UInt8]) throws {
        var builder = try fixture.assertion()
        builder.authenticatorDataOverride = bytes
        #expect(try fixture.authenticate(builder) == .failure(.malformedAuthenticatorData))
    }

    @Test func malformedClientDataIsRefused() throws {
        var builder = try fixture.assertion()
        builder.clientDataJSON = [0xff, 0xfe]
        #expect(try fixture.authenticate(builder) == .failure(.malformedClientData))
    }
}
