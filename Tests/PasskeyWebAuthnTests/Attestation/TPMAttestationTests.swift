import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import Testing

@testable import PasskeyWebAuthn

/// WebAuthn L3 §8.3 on real Windows Hello attestations, each test breaking one rule.
@Suite struct TPMAttestationTests {
    static let rsaVector = "tpm-rs256-surface-pro-4"
    static let eccVector = "tpm-es256-windows-hello-ecc"

    @Test(arguments: [rsaVector, eccVector, "tpm-rs256-windows-hello-nonstandard-san"])
    func realAttestationVerifiesAsAttCA(_ name: String) throws {
        let fixture = try AttestationInputFixture(vector: name)
        let result = try TPMAttestation.verify(fixture.input)
        #expect(result.type == .attCA)
        #expect(result.trustPath.count == 2)
    }

    @Test func certInfoMagicMustBeTPMGenerated() throws {
        var fixture = try AttestationInputFixture(vector: Self.rsaVector)
        #expect(TPMSAttest(bytes: try fixture.bytes("certInfo"))?.magic == TPMSAttest.generatedValue)
        try fixture.flip("certInfo", at: 3)
        #expect(TPMSAttest(bytes: try fixture.bytes("certInfo")) == nil)
        #expect(throws: CredentialVerificationFailure.invalidAttestation) { try TPMAttestation.verify(fixture.input) }
    }

    @Test func certInfoTypeMustBeAttestCertify() throws {
        var fixture = try AttestationInputFixture(vector: Self.rsaVector)
        try fixture.flip("certInfo", at: 5)  // TPM_ST_ATTEST_CERTIFY 0x8017 → 0x8016 (TPM_ST_ATTEST_QUOTE's neighbour)
        #expect(TPMSAttest(bytes: try fixture.bytes("certInfo")) == nil)
        #expect(throws: CredentialVerificationFailure.invalidAttestation) { try TPMAttestation.verify(fixture.input) }
    }

    @Test func certInfoAndPubAreaAreParsedExactly() throws {
        let fixture = try AttestationInputFixture(vector: Self.eccVector)
        let certInfo = try fixture.bytes("certInfo")
        let pubArea = try fixture.bytes("pubArea")
        #expect(TPMSAttest(bytes: certInfo + [0]) == nil)
        #expect(TPMSAttest(bytes: Array(certInfo.dropLast())) == nil)
        #expect(TPMTPublic(bytes: pubArea + [0]) == nil)
        #expect(TPMTPublic(bytes: Array(pubArea.dropLast())) == nil)
        #expect(TPMTPublic(bytes: [0x00]) == nil)
        let parsed = try #require(TPMTPublic(bytes: pubArea))
        #expect(parsed.type == TPMAlgorithm.ecc)
        guard case .ecc(let curve, let x, let y) = parsed.key else {
            Issue.record("not an ECC pubArea")
            return
        }
        #expect(curve == .p256 && x.count == 32 && y.count == 32)
    }

    @Test func extraDataMustHashAttToBeSignedWithAlg() throws {
        // Another clientDataHash: certInfo and its signature stay valid, only extraData no longer matches.
        var fixture = try AttestationInputFixture(vector: Self.rsaVector)
        fixture.clientDataHash[0] ^= 0x01
        #expect(throws: CredentialVerificationFailure.invalidAttestation) { try TPMAttestation.verify(fixture.input) }
    }

    @Test func pubAreaKeyMustBeTheCredentialKey() throws {
        var fixture = try AttestationInputFixture(vector: Self.rsaVector)
        let other = try AttestationInputFixture(vector: "tpm-rs256-dell-xps-13")
        let pubArea = try #require(TPMTPublic(bytes: try fixture.bytes("pubArea")))
        #expect(TPMAttestation.keyMatches(pubArea.key, fixture.credentialKey.parameters))
        #expect(!TPMAttestation.keyMatches(pubArea.key, other.credentialKey.parameters))
        fixture.credentialKey = other.credentialKey
        #expect(throws: CredentialVerificationFailure.invalidAttestation) { try TPMAttestation.verify(fixture.input) }
    }

    @Test func attestedNameMustBeTheNameOfPubArea() throws {
        // objectAttributes changed: the key still matches, but certInfo certifies another Name.
        var fixture = try AttestationInputFixture(vector: Self.rsaVector)
        try fixture.flip("pubArea", at: 7)
        let pubArea = try #require(TPMTPublic(bytes: try fixture.bytes("pubArea")))
        #expect(TPMAttestation.keyMatches(pubArea.key, fixture.credentialKey.parameters))
        #expect(throws: CredentialVerificationFailure.invalidAttestation) { try TPMAttestation.verify(fixture.input) }
    }

    @Test func signatureOverCertInfoMustVerify() throws {
        var fixture = try AttestationInputFixture(vector: Self.rsaVector)
        try fixture.flip("sig", at: 100)
        #expect(throws: CredentialVerificationFailure.invalidAttestation) { try TPMAttestation.verify(fixture.input) }
    }

    @Test func versionMustBeTwoPointZero() throws {
        var fixture = try AttestationInputFixture(vector: Self.rsaVector)
        fixture.set("ver", .text("1.2"))
        #expect(throws: CredentialVerificationFailure.invalidAttestation) { try TPMAttestation.verify(fixture.input) }
    }

    @Test func aikCertificateRequirementsHoldForRealAIKs() throws {
        for name in [Self.rsaVector, Self.eccVector, "tpm-rs256-windows-hello-nonstandard-san"] {
            let fixture = try AttestationInputFixture(vector: name)
            let aik = try #require(try fixture.certificates().first)
            #expect(throws: Never.self) { try TPMCertificateRequirements.check(aik, aaguid: fixture.credential.aaguid) }
            let value = try #require(aik.extensionValue(oid: SubjectAlternativeName.extensionOID))
            let san = try #require(SubjectAlternativeName(extensionValue: value))
            #expect(TPMCertificateRequirements.attribute(TPMCertificateRequirements.modelOID, in: san) != nil)
        }
    }

    @Test func aikRequirementsRefuseOtherCertificates() throws {
        // The AIK's issuing CA (a CA with a subject) and a packed attestation leaf.
        let fixture = try AttestationInputFixture(vector: Self.rsaVector)
        let issuer = try #require(try fixture.certificates().last)
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try TPMCertificateRequirements.check(issuer, aaguid: fixture.credential.aaguid)
        }
        let packed = try AttestationInputFixture(vector: "packed-es256-yubikey5-b")
        let leaf = try #require(try packed.certificates().first)
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try TPMCertificateRequirements.check(leaf, aaguid: packed.credential.aaguid)
        }
    }

    @Test(arguments: [
        ("id:494E5443", true), ("id:4e544300", true), ("id:FFFFF1D0", true), ("id:494E54", false),
        ("494E5443", false), ("id:494E544G", false), ("", false),
    ])
    func manufacturerMustBeAVendorID(_ value: String, _ valid: Bool) {
        #expect(TPMCertificateRequirements.isManufacturerID(value) == valid)
    }
}
