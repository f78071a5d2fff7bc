import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import Testing

@testable import PasskeyWebAuthn

/// WebAuthn L3 §8.5 and this server's SafetyNet policy on real responses.
@Suite struct SafetyNetAttestationTests {
    static let vector = "android-safetynet-es256-2021"

    func verify(_ fixture: AttestationInputFixture) -> CredentialVerificationFailure? {
        do {
            _ = try AndroidSafetyNetAttestation.verify(fixture.input)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [vector, "android-safetynet-es256-cts-false-2025", "android-safetynet-es256-2019"])
    func realResponseVerifiesAsBasic(_ name: String) throws {
        let fixture = try AttestationInputFixture(vector: name)
        let jws = try #require(SafetyNetJWS(try fixture.bytes("response")))
        let result = try AndroidSafetyNetAttestation.verify(fixture.input)
        #expect(result.type == .basic)
        #expect(result.trustPath.count == jws.certificates.count)
    }

    @Test func ctsProfileMismatchIsAcceptedWithBasicIntegrity() throws {
        let fixture = try AttestationInputFixture(vector: "android-safetynet-es256-cts-false-2025")
        let jws = try #require(SafetyNetJWS(try fixture.bytes("response")))
        #expect(jws.payload.ctsProfileMatch == false)
        #expect(jws.payload.basicIntegrity == true)
        #expect(verify(fixture) == nil)
    }

    @Test func nonceMustBindAuthenticatorDataAndClientData() throws {
        var fixture = try AttestationInputFixture(vector: Self.vector)
        fixture.clientDataHash[0] ^= 0x01
        #expect(verify(fixture) == .invalidAttestation)
    }

    @Test(arguments: [(-9.0, true), (-10.5, false), (0, true), (59.0, true), (60.5, false), (3600, false)])
    func timestampMustLieInTheWindow(_ offset: TimeInterval, _ accepted: Bool) throws {
        // offset = verification time − timestampMs: positive means the response is that old.
        var fixture = try AttestationInputFixture(vector: Self.vector)
        fixture.verificationTime += offset
        #expect(verify(fixture) == (accepted ? nil : .invalidAttestation))
    }

    @Test func jwsSignatureMustVerify() throws {
        var fixture = try AttestationInputFixture(vector: Self.vector)
        var response = try fixture.bytes("response")
        let lastDot = try #require(response.lastIndex(of: UInt8(ascii: ".")))
        let index = lastDot + 20
        try #require(response.indices.contains(index))
        response[index] = response[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        fixture.set("response", .bytes(response))
        let jws = try #require(SafetyNetJWS(response))
        #expect(!jws.signatureIsValid)
        #expect(verify(fixture) == .invalidAttestation)
    }

    @Test func signingCertificateMustBeIssuedToAttestAndroidCom() throws {
        let fixture = try AttestationInputFixture(vector: Self.vector)
        let jws = try #require(SafetyNetJWS(try fixture.bytes("response")))
        let leaf = try #require(jws.certificates.first)
        let intermediate = try #require(jws.certificates.dropFirst().first)
        #expect(AndroidSafetyNetAttestation.isIssuedToAttestationHost(leaf))
        #expect(!AndroidSafetyNetAttestation.isIssuedToAttestationHost(intermediate))
        let apple = try AttestationInputFixture(vector: "apple-es256-ios15-passkey")
        let appleLeaf = try #require(try apple.certificates().first)
        #expect(!AndroidSafetyNetAttestation.isIssuedToAttestationHost(appleLeaf))
    }

    @Test func versionMustBePresentAndNonEmpty() throws {
        var fixture = try AttestationInputFixture(vector: Self.vector)
        fixture.set("ver", .text(""))
        #expect(verify(fixture) == .invalidAttestation)
        fixture.set("ver", .unsigned(212_621_037))
        #expect(verify(fixture) == .invalidAttestation)
    }

    @Test func malformedJWSIsRefused() throws {
        let fixture = try AttestationInputFixture(vector: Self.vector)
        let response = try fixture.bytes("response")
        let parts = response.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map(Array.init)
        try #require(parts.count == 3)
        #expect(SafetyNetJWS(parts[0] + [UInt8(ascii: ".")] + parts[1]) == nil)
        #expect(SafetyNetJWS(response + [UInt8(ascii: ".")] + parts[2]) == nil)
        #expect(SafetyNetJWS(parts[0] + [UInt8(ascii: "."), UInt8(ascii: ".")] + parts[2]) == nil)
        // An algorithm outside the list (HS256 would let anyone with the "key" forge responses).
        let jws = try #require(SafetyNetJWS(response))
        let header = #"{"alg":"HS256","x5c":["\#(jws.header.x5c[0])"]}"#
        let forged =
            Array(Base64URL.encode(Array(header.utf8)).utf8) + [UInt8(ascii: ".")] + parts[1]
            + [UInt8(ascii: ".")] + parts[2]
        #expect(SafetyNetJWS(forged) == nil)
    }

    @Test func ecdsaJWSSignaturesAreReencodedAsDER() throws {
        let r: [UInt8] = [0x80] + [UInt8](repeating: 0, count: 31)
        let s: [UInt8] = [UInt8](repeating: 0, count: 31) + [0x01]
        let der = try #require(JWSAlgorithm.es256.opensslSignature(r + s))
        #expect(der == [0x30, 0x26, 0x02, 0x21, 0x00] + r + [0x02, 0x01, 0x01])
        #expect(JWSAlgorithm.es256.opensslSignature(r) == nil)
        #expect(JWSAlgorithm.rs256.opensslSignature(r) == r)
    }
}
