import PasskeyDomain
import PasskeyOpenSSL
import PasskeyTestSupport
import PasskeyWebAuthn
import Testing

/// Contract (v3): an RSA credential key has a 2048- to 4096-bit modulus and the exponent 65537;
/// anything else is `unsupportedAlgorithm`, decided on the bytes before OpenSSL sees the key.
@Suite struct COSEKeyRSALimitTests {
    /// A big-endian odd integer of exactly `bits` significant bits (with a leading zero byte when
    /// `padded`, as some encoders send it).
    static func integer(bits: Int, padded: Bool = false) -> [UInt8] {
        var bytes = SecureRandom.bytes(count: (bits + 7) / 8)
        let topBits = bits % 8 == 0 ? 8 : bits % 8
        bytes[0] = (bytes[0] & UInt8((1 << topBits) - 1)) | UInt8(1 << (topBits - 1))
        bytes[bytes.count - 1] |= 1
        return padded ? [0] + bytes : bytes
    }

    static func key(modulus: [UInt8], exponent: [UInt8], algorithm: Int = -257) -> [UInt8] {
        SoftwareAuthenticatorCBOR.map([
            (.int(1), .int(3)), (.int(3), .int(algorithm)), (.int(-1), .bytes(modulus)), (.int(-2), .bytes(exponent)),
        ]).encoded
    }

    static let f4: [UInt8] = [0x01, 0x00, 0x01]

    @Test(arguments: [(2047, false), (2048, true), (4096, true), (4097, false), (16384, false)])
    func modulusMustHave2048To4096Bits(bits: Int, accepted: Bool) throws {
        let bytes = Self.key(modulus: Self.integer(bits: bits), exponent: Self.f4)
        if accepted {
            let key = try COSEKey(bytes: bytes)
            #expect(key.algorithm == .rs256)
            #expect(key.publicKey.kind == .rsa(bits: bits))
        } else {
            #expect(throws: COSEKeyError.unsupportedAlgorithm) { try COSEKey(bytes: bytes) }
        }
    }

    @Test(arguments: [([UInt8]([3]), false), (f4, true), (integer(bits: 3070), false), ([0, 0x01, 0x00, 0x01], true)])
    func exponentMustBe65537(exponent: [UInt8], accepted: Bool) throws {
        let bytes = Self.key(modulus: Self.integer(bits: 2048), exponent: exponent)
        if accepted {
            #expect(try COSEKey(bytes: bytes).algorithm == .rs256)
        } else {
            #expect(throws: COSEKeyError.unsupportedAlgorithm) { try COSEKey(bytes: bytes) }
        }
    }

    @Test func leadingZeroBytesDoNotCountAsModulusBits() throws {
        let bytes = Self.key(modulus: Self.integer(bits: 4096, padded: true), exponent: Self.f4)
        #expect(try COSEKey(bytes: bytes).publicKey.kind == .rsa(bits: 4096))
        let short = Self.key(modulus: [0, 0] + Self.integer(bits: 2047), exponent: Self.f4)
        #expect(throws: COSEKeyError.unsupportedAlgorithm) { try COSEKey(bytes: short) }
    }

    @Test func theLimitsHoldForPSSKeysToo() {
        let bytes = Self.key(modulus: Self.integer(bits: 16384), exponent: Self.f4, algorithm: -37)
        #expect(throws: COSEKeyError.unsupportedAlgorithm) { try COSEKey(bytes: bytes) }
    }

    @Test(arguments: [16384, 1024])
    func aRegistrationWithSuchAKeyFailsAsUnsupportedAlgorithm(bits: Int) throws {
        let fixture = VerifierFixture()
        var builder = try fixture.registration(.rs256)
        builder.attestation = .packedSelf()
        builder.coseKeyBytes = Self.key(modulus: Self.integer(bits: bits), exponent: Self.f4)
        #expect(try fixture.registrationFailure(builder) == .unsupportedAlgorithm)
    }
}
