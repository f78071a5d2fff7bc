import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import Testing

@testable import PasskeyWebAuthn

/// The RSA bound of the credential key (a 2048–4096-bit modulus, exponent 65537) holds for the
/// keys of attestation certificates too (packed x5c, android-key, tpm AIK, safetynet): they sign
/// like the credential key and an attacker chooses them as freely. Found by review after the
/// credential key alone was bounded.
@Suite struct AttestationKeyBoundsTests {
    /// An RSA public key with a modulus of exactly `bits` bits (top bit set, odd) and `exponent`.
    private static func rsa(bits: Int, exponent: [UInt8] = [0x01, 0x00, 0x01]) throws -> PublicKey {
        let count = (bits + 7) / 8
        var modulus = [UInt8](repeating: 0xA5, count: count)
        let topBit = (bits - 1) % 8
        modulus[0] = UInt8(1 << topBit) | (topBit > 0 ? 1 : 0)
        modulus[count - 1] |= 1
        return try PublicKey.rsa(modulus: modulus, exponent: exponent)
    }

    @Test(arguments: [(2048, true), (3072, true), (4096, true), (2047, false), (4097, false), (16384, false)])
    func theModulusIsBounded(bits: Int, allowed: Bool) throws {
        let key = try Self.rsa(bits: bits)
        #expect(key.kind == .rsa(bits: bits))
        #expect(AttestationKeyBounds.allow(key) == allowed)
        if allowed {
            #expect(throws: Never.self) { try AttestationKeyBounds.require(key) }
        } else {
            #expect(throws: CredentialVerificationFailure.unsupportedAlgorithm) {
                try AttestationKeyBounds.require(key)
            }
        }
    }

    @Test func onlyTheExponent65537IsAllowed() throws {
        #expect(try Self.rsa(bits: 2048).rsaPublicExponent == [0x01, 0x00, 0x01])
        #expect(AttestationKeyBounds.allow(try Self.rsa(bits: 2048, exponent: [0x03])) == false)
        // A 3,070-bit exponent, as in the review's attack.
        var huge = [UInt8](repeating: 0xFF, count: 384)
        huge[0] = 0x3F
        let costly = try Self.rsa(bits: 3072, exponent: huge)
        #expect(costly.rsaPublicExponent == huge)
        #expect(AttestationKeyBounds.allow(costly) == false)
        // Leading zeros do not make another exponent.
        #expect(AttestationKeyBounds.allow(try Self.rsa(bits: 2048, exponent: [0x00, 0x01, 0x00, 0x01])))
    }

    /// A real Windows Hello AIK certificate (RSA): its exponent is read from the certificate, and
    /// it passes, so real TPM attestations are not refused.
    @Test func aRealAIKCertificateKeyIsWithinTheBounds() throws {
        let ceremony = try WebAuthnVectors.load("tpm-es256-windows-hello-ecc.json")
        let encoded = try #require(ceremony.response.attestationObject)
        let bytes = try #require(Base64URL.decode(encoded))
        let object = try #require(AttestationObject(bytes: bytes))
        let aik = try #require(try X5CChain.parse(object.statement)?.first)
        let key = try aik.publicKey()
        guard case .rsa = key.kind else {
            Issue.record("the AIK of this vector is expected to be RSA, got \(key.kind)")
            return
        }
        #expect(key.rsaPublicExponent == [0x01, 0x00, 0x01])
        #expect(AttestationKeyBounds.allow(key))
    }

    @Test func nonRSAKeysAreNotTouched() throws {
        let ec = try PublicKey.ec(curve: .p256, x: Self.p256X, y: Self.p256Y)
        #expect(AttestationKeyBounds.allow(ec))
    }

    /// The P-256 generator point: a valid EC key.
    private static let p256X: [UInt8] = [
        0x6B, 0x17, 0xD1, 0xF2, 0xE1, 0x2C, 0x42, 0x47, 0xF8, 0xBC, 0xE6, 0xE5, 0x63, 0xA4, 0x40, 0xF2,
        0x77, 0x03, 0x7D, 0x81, 0x2D, 0xEB, 0x33, 0xA0, 0xF4, 0xA1, 0x39, 0x45, 0xD8, 0x98, 0xC2, 0x96,
    ]
    private static let p256Y: [UInt8] = [
        0x4F, 0xE3, 0x42, 0xE2, 0xFE, 0x1A, 0x7F, 0x9B, 0x8E, 0xE7, 0xEB, 0x4A, 0x7C, 0x0F, 0x9E, 0x16,
        0x2B, 0xCE, 0x33, 0x57, 0x6B, 0x31, 0x5E, 0xCE, 0xCB, 0xB6, 0x40, 0x68, 0x37, 0xBF, 0x51, 0xF5,
    ]
}
