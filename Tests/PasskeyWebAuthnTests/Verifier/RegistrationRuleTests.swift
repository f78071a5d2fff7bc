import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import PasskeyTestSupport
import PasskeyWebAuthn
import Testing

/// WebAuthn L3 §7.1: one test per rule, each changing one field and expecting one reason.
@Suite struct RegistrationRuleTests {
    let fixture = VerifierFixture()

    @Test(arguments: [COSEAlgorithm.es256, .es384, .es512, .edDSA, .rs256, .ps256])
    func noneAttestationVerifies(_ algorithm: COSEAlgorithm) throws {
        let builder = try fixture.registration(algorithm)
        let result = try fixture.verifier().verifyRegistration(
            try builder.makeResponse(), expectation: fixture.registrationExpectation())
        #expect(result.algorithm == algorithm)
        #expect(result.attestationFormat == "none")
        #expect(result.attestationType == .none)
        #expect(result.credentialID.bytes == builder.credentialID)
        #expect(result.publicKey == (try builder.credentialPublicKey()))
    }

    @Test(arguments: [COSEAlgorithm.es256, .es384, .es512, .edDSA, .rs256, .ps256])
    func packedSelfAttestationVerifies(_ algorithm: COSEAlgorithm) throws {
        var builder = try fixture.registration(algorithm)
        builder.attestation = .packedSelf()
        let result = try fixture.verifier().verifyRegistration(
            try builder.makeResponse(), expectation: fixture.registrationExpectation())
        #expect(result.attestationFormat == "packed")
        #expect(result.attestationType == .self)
    }

    @Test func extensionsAndUnknownClientDataMembersAreTolerated() throws {
        var builder = try fixture.registration()
        builder.extensions = .map([(.text("credProtect"), .int(2))])
        builder.clientData.extraMembers = [("other_keys_can_be_added_here", "x"), ("tokenBinding", "y")]
        builder.flags.backupEligible = true
        builder.flags.backupState = true
        #expect(try fixture.registrationFailure(builder) == nil)
    }

    @Test func userPresenceIsRequiredUnlessConditional() throws {
        var builder = try fixture.registration()
        builder.flags.userPresent = false
        #expect(try fixture.registrationFailure(builder) == .userPresentFlagNotSet)
        builder.flags.userVerified = false
        let conditional = fixture.registrationExpectation(requireUserPresence: false, requireUserVerification: false)
        #expect(try fixture.registrationFailure(builder, expectation: conditional) == nil)
    }

    @Test func userVerificationIsRequiredWhenAsked() throws {
        var builder = try fixture.registration()
        builder.flags.userVerified = false
        #expect(try fixture.registrationFailure(builder) == .userVerifiedFlagNotSet)
        let preferred = fixture.registrationExpectation(requireUserVerification: false)
        #expect(try fixture.registrationFailure(builder, expectation: preferred) == nil)
    }

    @Test func originMustBeAllowed() throws {
        var builder = try fixture.registration()
        builder.clientData.origin = "https://evil.example"
        #expect(try fixture.registrationFailure(builder) == .originMismatch)
    }

    @Test func crossOriginIsRefused() throws {
        var builder = try fixture.registration()
        builder.clientData.crossOrigin = true
        #expect(try fixture.registrationFailure(builder) == .crossOriginNotAllowed)
    }

    @Test func topOriginIsRefused() throws {
        var builder = try fixture.registration()
        builder.clientData.topOrigin = "https://top.example"
        #expect(try fixture.registrationFailure(builder) == .topOriginNotAllowed)
    }

    @Test func rpIdHashMustMatch() throws {
        var builder = try fixture.registration()
        builder.relyingPartyIDHash = Digest.sha256(Array("other.example".utf8))
        #expect(try fixture.registrationFailure(builder) == .rpIdHashMismatch)
    }

    @Test func challengeMustMatchAsBytes() throws {
        var builder = try fixture.registration()
        builder.clientData.challenge = Base64URL.encode([UInt8](repeating: 0, count: 32))
        #expect(try fixture.registrationFailure(builder) == .challengeMismatch)
        builder.clientData.challenge = "not base64url!"
        #expect(try fixture.registrationFailure(builder) == .challengeMismatch)
    }

    @Test func typeMustBeCreate() throws {
        var builder = try fixture.registration()
        builder.clientData.type = "webauthn.get"
        #expect(try fixture.registrationFailure(builder) == .typeMismatch)
    }

    @Test func backupStateNeedsEligibility() throws {
        var builder = try fixture.registration()
        builder.flags.backupState = true
        #expect(try fixture.registrationFailure(builder) == .backupStateWithoutEligibility)
    }

    @Test func attestedCredentialDataIsRequired() throws {
        var builder = try fixture.registration()
        builder.includeAttestedCredentialData = false
        #expect(try fixture.registrationFailure(builder) == .attestedCredentialDataMissing)
    }

    @Test func credentialIDLongerThan1023BytesIsRefused() throws {
        var builder = try fixture.registration()
        builder.credentialID = [UInt8](repeating: 7, count: 1024)
        #expect(try fixture.registrationFailure(builder) == .credentialIdTooLong)
        builder.credentialID = [UInt8](repeating: 7, count: 1023)
        #expect(try fixture.registrationFailure(builder) == nil)
    }

    @Test func reportedCredentialIDMustEqualAttestedOne() throws {
        var builder = try fixture.registration()
        builder.reportedCredentialID = [1, 2, 3]
        #expect(try fixture.registrationFailure(builder) == .credentialIdMismatch)
    }

    @Test func algorithmMustBeOffered() throws {
        let builder = try fixture.registration(.edDSA)
        let verifier = try fixture.verifier(algorithms: [.es256, .rs256])
        #expect(try fixture.registrationFailure(builder, verifier: verifier) == .unsupportedAlgorithm)
    }

    @Test func unknownCOSEAlgorithmIsUnsupported() throws {
        var builder = try fixture.registration()
        let base = try builder.key.coseKey()
        guard case .map(let entries) = base else { return }
        builder.coseKeyBytes =
            SoftwareAuthenticatorCBOR.map(entries.map { $0.0.encodedInt == 3 ? ($0.0, .int(-999)) : $0 }).encoded
        #expect(try fixture.registrationFailure(builder) == .unsupportedAlgorithm)
    }

    @Test(arguments: ["not_real_fmt", "Packed", "TPM", "android_key"])
    func unknownFormatsAreRefused(_ format: String) throws {
        var builder = try fixture.registration()
        builder.attestation = .custom(format: format, statement: .map([]))
        #expect(try fixture.registrationFailure(builder) == .unsupportedAttestationFormat)
    }

    /// The software authenticator cannot make TPM or Android attestations: an empty statement
    /// reaches their procedures and is refused as invalid, not as unsupported.
    @Test(arguments: ["tpm", "android-key", "android-safetynet"])
    func emptyStatementsOfDeviceFormatsAreInvalid(_ format: String) throws {
        var builder = try fixture.registration()
        builder.attestation = .custom(format: format, statement: .map([]))
        #expect(try fixture.registrationFailure(builder) == .invalidAttestation)
    }

    @Test func noneAttestationStatementMustBeEmpty() throws {
        var builder = try fixture.registration()
        builder.attestation = .custom(format: "none", statement: .map([(.text("alg"), .int(-7))]))
        #expect(try fixture.registrationFailure(builder) == .invalidAttestation)
    }

    @Test func packedSelfSignatureMustVerify() throws {
        var builder = try fixture.registration()
        builder.attestation = .packedSelf()
        builder.corruptAttestationSignature = true
        #expect(try fixture.registrationFailure(builder) == .invalidAttestation)
    }

    @Test func packedSelfAlgorithmMustEqualCredentialAlgorithm() throws {
        var builder = try fixture.registration()
        builder.attestation = .packedSelf(algorithm: COSEAlgorithm.es384.rawValue)
        #expect(try fixture.registrationFailure(builder) == .invalidAttestation)
    }

    @Test func trustedPolicyRefusesNoneAndSelfAttestation() throws {
        var builder = try fixture.registration()
        let verifier = try fixture.verifier(policy: .trusted)
        #expect(try fixture.registrationFailure(builder, verifier: verifier) == .untrustedAttestation)
        builder.attestation = .packedSelf()
        #expect(try fixture.registrationFailure(builder, verifier: verifier) == .untrustedAttestation)
    }

    @Test(arguments: [[UInt8](), [0x01], [0xa1, 0x63, 0x66, 0x6d, 0x74], [0xa0]])
    func undecodableAttestationObjectIsMalformed(_ bytes: [UInt8]) throws {
        let builder = try fixture.registration()
        var response = try builder.makeResponse()
        response.attestationObject = bytes
        #expect(throws: CredentialVerificationFailure.malformedAttestationObject) {
            try fixture.verifier().verifyRegistration(response, expectation: fixture.registrationExpectation())
        }
    }

    @Test func trailingBytesAfterAuthenticatorDataAreMalformed() throws {
        var builder = try fixture.registration()
        builder.trailingBytes = [0x00]
        #expect(try fixture.registrationFailure(builder) == .malformedAuthenticatorData)
    }

    @Test func truncatedCredentialKeyIsMalformed() throws {
        var builder = try fixture.registration()
        builder.coseKeyBytes = Array(try builder.key.coseKey().encoded.dropLast(5))
        #expect(try fixture.registrationFailure(builder) == .malformedAuthenticatorData)
    }

    @Test func textEncodedKeyTypeIsMalformed() throws {
        var builder = try fixture.registration(.edDSA)
        builder.coseKeyBytes =
            SoftwareAuthenticatorCBOR.map([
                (.int(1), .text("OKP")), (.int(3), .int(-8)), (.int(-1), .text("Ed25519")),
                (.int(-2), .bytes([UInt8](repeating: 1, count: 32))),
            ]).encoded
        #expect(try fixture.registrationFailure(builder) == .malformedAuthenticatorData)
    }

    @Test func algorithmMustFitTheCurve() throws {
        var builder = try fixture.registration(.es384)
        let (x, y) = try builder.key.privateKey.ecCoordinates()
        builder.coseKeyBytes =
            SoftwareAuthenticatorCBOR.map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(2)), (.int(-2), .bytes(x)),
                (.int(-3), .bytes(y)),
            ]).encoded
        #expect(try fixture.registrationFailure(builder) == .malformedAuthenticatorData)
    }

    @Test func pointOffTheCurveIsMalformed() throws {
        var builder = try fixture.registration()
        builder.coseKeyBytes =
            SoftwareAuthenticatorCBOR.map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                (.int(-2), .bytes([UInt8](repeating: 1, count: 32))),
                (.int(-3), .bytes([UInt8](repeating: 2, count: 32))),
            ]).encoded
        #expect(try fixture.registrationFailure(builder) == .malformedAuthenticatorData)
    }

    @Test func extensionFlagWithoutExtensionsIsMalformed() throws {
        var builder = try fixture.registration()
        builder.flags.extensionData = true
        #expect(try fixture.registrationFailure(builder) == .malformedAuthenticatorData)
    }

    @Test(arguments: [
        "not json", "[]", "{\"type\":\"webauthn.create\"}", "{\"type\":1,\"challenge\":\"\",\"origin\":\"\"}",
    ])
    func unparseableClientDataIsMalformed(_ json: String) throws {
        var builder = try fixture.registration()
        builder.clientDataJSON = Array(json.utf8)
        #expect(try fixture.registrationFailure(builder) == .malformedClientData)
    }
}
