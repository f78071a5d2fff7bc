import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import Testing

@testable import PasskeyWebAuthn

/// x5c certificate requirements and the `trusted` policy, on real attestation certificates.
@Suite struct AttestationTrustTests {
    func leafAndRoot(_ name: String) throws -> (leaf: Certificate, root: Certificate, ceremony: CapturedCeremony) {
        let ceremony = try WebAuthnVectors.load(name + ".json")
        let encoded = try #require(ceremony.response.attestationObject)
        let bytes = try #require(Base64URL.decode(encoded))
        let object = try #require(AttestationObject(bytes: bytes))
        let chain = try X5CChain.parse(object.statement)
        let leaf = try #require(chain?.first)
        let pem = try #require(ceremony.trustAnchorsPEM?.first)
        let rootDER = try #require(PEM.certificates(in: pem)?.first)
        return (leaf, try Certificate(der: rootDER), ceremony)
    }

    @Test func packedLeafMeetsRequirementsWithItsAAGUID() throws {
        let (leaf, _, ceremony) = try leafAndRoot("packed-es256-yubikey5-b")
        let aaguid = try #require(ceremony.expected.aaguid.flatMap(AAGUID.init(string:)))
        #expect(throws: Never.self) { try PackedAttestation.checkCertificateRequirements(leaf, aaguid: aaguid) }
    }

    @Test func packedLeafAAGUIDExtensionMustMatchAuthenticatorData() throws {
        let (leaf, _, _) = try leafAndRoot("packed-es256-yubikey5-b")
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try PackedAttestation.checkCertificateRequirements(leaf, aaguid: AAGUID.zero)
        }
    }

    @Test func caCertificateWithoutAttestationSubjectIsRefusedAsPackedLeaf() throws {
        let (_, root, _) = try leafAndRoot("packed-es256-yubikey5-b")
        #expect(root.basicConstraintsCA == true)
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try PackedAttestation.checkCertificateRequirements(root, aaguid: AAGUID.zero)
        }
    }

    @Test func appleNonceIsReadFromTheExtension() throws {
        let (leaf, _, _) = try leafAndRoot("apple-es256-ios15-passkey")
        let value = try #require(leaf.extensionValue(oid: AppleAttestation.nonceExtensionOID))
        #expect(AppleAttestation.extractNonce(value)?.count == 32)
    }

    @Test func trustedPolicyRefusesAnUnrelatedAnchor() throws {
        var ceremony = try WebAuthnVectors.load("packed-es256-yubikey5-b.json")
        ceremony.trustAnchorsPEM = try WebAuthnVectors.load("apple-es256-ios15-passkey.json").trustAnchorsPEM
        #expect(try ceremony.verify(policy: .trusted) == .failure(.untrustedAttestation))
        #expect(throws: Never.self) { try ceremony.verify(policy: .any).get() }
    }

    @Test func trustedPolicyChecksValidityAtVerificationTime() throws {
        var ceremony = try WebAuthnVectors.load("apple-es256-ios15-passkey.json")
        #expect(throws: Never.self) { try ceremony.verify(policy: .trusted).get() }
        ceremony.verifyAt = "2040-01-01T00:00:00Z"
        #expect(try ceremony.verify(policy: .trusted) == .failure(.untrustedAttestation))
    }
}
