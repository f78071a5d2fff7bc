import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import PasskeyWebAuthn
import Testing

/// The `CredentialVerifier` adapter end to end with one software authenticator: what a
/// registration yields (the credential's COSE key and algorithm) is what later sign-ins are
/// checked against, and an assertion verifies against it only with its signature intact.
/// (`RegistrationRuleTests` and `AuthenticationRuleTests` take the rules one by one.)
@Suite struct WebAuthnCredentialVerifierTests {
    static let algorithms: [COSEAlgorithm] = [.es256, .es384, .edDSA, .rs256, .ps256]

    let fixture = VerifierFixture()
    /// The sign-in's own challenge, not the registration's.
    let signInChallenge = Challenge(bytes: (0..<32).map { 0xFF - UInt8($0) })

    /// A credential registered through the verifier, and what the server stored of it.
    private struct Registered {
        let verifier: any CredentialVerifier
        let key: SoftwareAuthenticatorKey
        let credentialID: [UInt8]
        let stored: VerifiedRegistration
    }

    private func register(_ algorithm: COSEAlgorithm) throws -> Registered {
        let verifier = try fixture.verifier()
        let registration = try fixture.registration(algorithm)
        let stored = try verifier.verifyRegistration(
            try registration.makeResponse(), expectation: fixture.registrationExpectation())
        return Registered(
            verifier: verifier, key: registration.key, credentialID: registration.credentialID, stored: stored)
    }

    /// An assertion of the registered credential over the sign-in challenge, and the expectation
    /// the server builds from the stored registration.
    private func signIn(with registered: Registered) throws -> (AuthenticationResponse, AuthenticationExpectation) {
        var assertion = SoftwareAuthenticatorAssertion(
            key: registered.key, relyingPartyID: VerifierFixture.relyingPartyID, origin: VerifierFixture.origin,
            challenge: signInChallenge.bytes)
        assertion.credentialID = registered.credentialID
        assertion.signCount = registered.stored.signCount + 1
        let expectation = AuthenticationExpectation(
            challenge: signInChallenge, requireUserVerification: true, publicKey: registered.stored.publicKey,
            storedSignCount: registered.stored.signCount, storedBackupEligible: registered.stored.backupEligible,
            expectedUserHandle: assertion.userHandle.flatMap(UserHandle.init(bytes:)), requireUserHandle: true)
        return (try assertion.makeResponse(), expectation)
    }

    @Test(arguments: WebAuthnCredentialVerifierTests.algorithms)
    func aRegistrationYieldsTheCredentialsPublicKeyAndAlgorithm(_ algorithm: COSEAlgorithm) throws {
        let registered = try register(algorithm)
        #expect(registered.stored.algorithm == algorithm)
        #expect(registered.stored.publicKey == (try registered.key.coseKey().encoded))
        #expect(registered.stored.credentialID.bytes == registered.credentialID)
        #expect(registered.stored.signCount == 0)
        #expect(registered.stored.userPresent && registered.stored.userVerified)
    }

    @Test(arguments: WebAuthnCredentialVerifierTests.algorithms)
    func anAssertionOfTheRegisteredKeyVerifiesAgainstTheStoredKey(_ algorithm: COSEAlgorithm) throws {
        let registered = try register(algorithm)
        let (response, expectation) = try signIn(with: registered)
        let verified = try registered.verifier.verifyAuthentication(response, expectation: expectation)
        #expect(verified.algorithm == algorithm)
        #expect(verified.signCount == 1)
        #expect(verified.userPresent && verified.userVerified)
        #expect(!verified.cloneWarning)
    }

    @Test(arguments: WebAuthnCredentialVerifierTests.algorithms)
    func theSameAssertionWithOneFlippedSignatureByteIsRefused(_ algorithm: COSEAlgorithm) throws {
        let registered = try register(algorithm)
        let (response, expectation) = try signIn(with: registered)
        let signature = response.signature
        for index in [0, signature.count / 2, signature.count - 1] {
            var flipped = response
            flipped.signature[index] ^= 0xFF
            #expect(throws: CredentialVerificationFailure.signatureInvalid, "byte \(index)") {
                try registered.verifier.verifyAuthentication(flipped, expectation: expectation)
            }
        }
        // The unflipped original still verifies: only the flipped byte made the difference.
        #expect(throws: Never.self) { try registered.verifier.verifyAuthentication(response, expectation: expectation) }
    }

    @Test func anAssertionDoesNotVerifyAgainstAnotherRegisteredKey() throws {
        let registered = try register(.es256)
        let other = try register(.es256)
        let (response, expectation) = try signIn(with: registered)
        var elsewhere = expectation
        elsewhere.publicKey = other.stored.publicKey
        #expect(throws: CredentialVerificationFailure.signatureInvalid) {
            try registered.verifier.verifyAuthentication(response, expectation: elsewhere)
        }
    }
}
