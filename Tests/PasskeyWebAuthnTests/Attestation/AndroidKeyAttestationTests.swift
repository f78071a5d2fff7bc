import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import Testing

@testable import PasskeyWebAuthn

/// WebAuthn L3 §8.4 on real Keystore attestations, and the KeyDescription parser on built DER.
@Suite struct AndroidKeyAttestationTests {
    static let hardwareVector = "android-key-es256-pixel-8a"
    static let softwareVector = "android-key-es256-software-keystore"

    /// One DER element (short or long length form).
    static func der(_ identifier: [UInt8], _ contents: [UInt8]) -> [UInt8] {
        let count = contents.count
        let length: [UInt8] = count < 0x80 ? [UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xff)]
        return identifier + length + contents
    }

    static func purpose(_ values: [UInt8]) -> [UInt8] {
        der([0xa1], der([0x31], values.flatMap { der([0x02], [$0]) }))
    }
    static let allApplications = der([0xbf, 0x84, 0x58], der([0x05], []))
    static func origin(_ value: UInt8) -> [UInt8] { der([0xbf, 0x85, 0x3e], der([0x02], [value])) }

    static func list(_ members: [UInt8]) throws -> AndroidAuthorizationList {
        try #require(AndroidAuthorizationList(contents: members))
    }

    @Test(arguments: [hardwareVector, softwareVector, "android-key-es256-pixel-portal-fxon"])
    func realAttestationVerifiesAsBasic(_ name: String) throws {
        let fixture = try AttestationInputFixture(vector: name)
        let result = try AndroidKeyAttestation.verify(fixture.input)
        #expect(result.type == .basic)
        #expect(result.trustPath.count == (try fixture.certificates().count))
    }

    @Test func keyDescriptionIsParsedFromTheLeaf() throws {
        for (name, level) in [(Self.hardwareVector, 1), (Self.softwareVector, 0)] {
            let fixture = try AttestationInputFixture(vector: name)
            let leaf = try #require(try fixture.certificates().first)
            let value = try #require(leaf.extensionValue(oid: AndroidKeyDescription.extensionOID))
            let description = try #require(AndroidKeyDescription(extensionValue: value))
            #expect(description.attestationChallenge == fixture.clientDataHash)
            #expect(description.attestationSecurityLevel == level)
            #expect(AndroidKeyDescription(extensionValue: value + [0]) == nil)
            #expect(AndroidKeyDescription(extensionValue: Array(value.dropLast())) == nil)
        }
    }

    @Test func challengeMustBeTheClientDataHash() throws {
        var fixture = try AttestationInputFixture(vector: Self.hardwareVector)
        fixture.clientDataHash[31] ^= 0x01
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try AndroidKeyAttestation.verify(fixture.input)
        }
    }

    @Test func leafKeyMustBeTheCredentialKey() throws {
        // The signature still verifies with the leaf; only the key comparison fails.
        var fixture = try AttestationInputFixture(vector: Self.hardwareVector)
        fixture.credentialKey = try AttestationInputFixture(vector: Self.softwareVector).credentialKey
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try AndroidKeyAttestation.verify(fixture.input)
        }
    }

    @Test func signatureMustVerifyWithAlg() throws {
        var fixture = try AttestationInputFixture(vector: Self.hardwareVector)
        fixture.set("alg", .negative(34))  // ES384
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try AndroidKeyAttestation.verify(fixture.input)
        }
        fixture = try AttestationInputFixture(vector: Self.hardwareVector)
        try fixture.flip("sig", at: 20)
        #expect(throws: CredentialVerificationFailure.invalidAttestation) {
            try AndroidKeyAttestation.verify(fixture.input)
        }
    }

    @Test func originAndPurposeMayComeFromEitherList() throws {
        let empty = try Self.list([])
        let both = try Self.list(Self.purpose([2]) + Self.origin(0))
        #expect(AndroidKeyAttestation.listsAreAcceptable(software: both, tee: empty))
        #expect(AndroidKeyAttestation.listsAreAcceptable(software: empty, tee: both))
        let purposeOnly = try Self.list(Self.purpose([3, 2]))
        let originOnly = try Self.list(Self.origin(0))
        #expect(AndroidKeyAttestation.listsAreAcceptable(software: purposeOnly, tee: originOnly))
        #expect(!AndroidKeyAttestation.listsAreAcceptable(software: empty, tee: empty))
    }

    @Test func allApplicationsIsRefusedInEitherList() throws {
        let valid = try Self.list(Self.purpose([2]) + Self.origin(0))
        let scopedToAll = try Self.list(Self.purpose([2]) + Self.allApplications + Self.origin(0))
        #expect(scopedToAll.allApplications)
        #expect(!AndroidKeyAttestation.listsAreAcceptable(software: scopedToAll, tee: valid))
        #expect(!AndroidKeyAttestation.listsAreAcceptable(software: valid, tee: scopedToAll))
    }

    @Test func importedOrNonSigningKeysAreRefused() throws {
        let imported = try Self.list(Self.purpose([2]) + Self.origin(2))
        #expect(!AndroidKeyAttestation.listsAreAcceptable(software: imported, tee: try Self.list([])))
        let generatedHere = try Self.list(Self.origin(0))
        #expect(!AndroidKeyAttestation.listsAreAcceptable(software: imported, tee: generatedHere))
        let encryptOnly = try Self.list(Self.purpose([0, 1]) + Self.origin(0))
        #expect(!AndroidKeyAttestation.listsAreAcceptable(software: encryptOnly, tee: try Self.list([])))
    }

    @Test func malformedAuthorizationListsAreRefused() {
        // Repeated tag, non-minimal high tag number, primitive member, truncated element.
        #expect(AndroidAuthorizationList(contents: Self.origin(0) + Self.origin(0)) == nil)
        #expect(AndroidAuthorizationList(contents: [0xbf, 0x80, 0x85, 0x3e, 0x03, 0x02, 0x01, 0x00]) == nil)
        #expect(AndroidAuthorizationList(contents: [0x81, 0x01, 0x02]) == nil)
        #expect(AndroidAuthorizationList(contents: Array(Self.origin(0).dropLast())) == nil)
        #expect(AndroidAuthorizationList(contents: Self.der([0xa1], Self.der([0x31], [0x04, 0x00]))) == nil)
    }
}
