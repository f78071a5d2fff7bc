import Foundation
import PasskeyDomain
import Testing

@Suite struct IdentifierTests {
    @Test func theUserHandleIsTheSixteenBytesOfTheAccountUUID() throws {
        let id = try #require(AccountID(string: "0123ABCD-4567-89ab-cdef-0123456789AB"))
        #expect(id.description == "0123abcd-4567-89ab-cdef-0123456789ab")
        #expect(
            id.userHandle.bytes == [
                0x01, 0x23, 0xAB, 0xCD, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB,
            ])
        #expect(id.userHandle.accountID == id)
        #expect(UserHandle(bytes: Array(repeating: 0, count: 15)) == nil)
        #expect(UserHandle(bytes: Array(repeating: 0, count: 17)) == nil)
    }

    @Test func credentialIDsAreOneTo1023Bytes() {
        #expect(CredentialID(bytes: []) == nil)
        #expect(CredentialID(bytes: Array(repeating: 1, count: 1023)) != nil)
        #expect(CredentialID(bytes: Array(repeating: 1, count: 1024)) == nil)
    }

    @Test func aaguidsPrintLowercaseHyphenated() throws {
        let aaguid = try #require(AAGUID(string: "FBFC3007-154E-4ECC-8C0B-6E020557D7BD"))
        #expect(aaguid.description == "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")
        #expect(AAGUID.zero.description == "00000000-0000-0000-0000-000000000000")
    }

    @Test func algorithmsHaveTheirConfigurationNames() {
        #expect(COSEAlgorithm(name: "es256") == .es256)
        #expect(COSEAlgorithm(name: "EdDSA")?.rawValue == -8)
        #expect(COSEAlgorithm(name: "RS256")?.rawValue == -257)
        #expect(COSEAlgorithm(name: "HS256") == nil)
    }
}
