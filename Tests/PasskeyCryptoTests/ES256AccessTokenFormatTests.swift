import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyOpenSSL
import Testing
@testable import PasskeyCrypto

/// The JWS form of the access tokens: exactly the header and claims the spec names, an ES256
/// signature in `r ‖ s` form that OpenSSL verifies, and nothing else read as ours. (PyJWT judges
/// the same tokens end to end in `TokenJOSETests`.)
@Suite struct ES256AccessTokenFormatTests {
    static let keyID = SigningKeyID(random: Array(0..<16))

    static let claims = AccessTokenClaims(
        issuer: "https://auth.example.com", audience: "https://api.example.com",
        subject: AccountID(UUID(uuidString: "47E55D1F-0B0E-4C64-B794-62D1B8EE5BAD")!),
        sessionID: SessionID(UUID(uuidString: "1B3D47AB-C5C0-4269-A18B-5AC1F73BC52C")!),
        tokenID: UUID(uuidString: "0F0304BA-2090-4CEC-B761-145D2561625E")!,
        issuedAt: Date(timeIntervalSince1970: 1_796_390_878), expiresAt: Date(timeIntervalSince1970: 1_796_391_178),
        authTime: Date(timeIntervalSince1970: 1_796_390_000), authenticationMethods: ["pop", "user", "mfa"],
        method: .passkey, stage: .passwordAndPasskey)

    /// A key pair and a token it signed.
    private struct Signed {
        let format = ES256AccessTokenFormat()
        let publicKey: ECPublicKeyCoordinates
        let privateKey: [UInt8]
        let token: String

        init(_ claims: AccessTokenClaims = ES256AccessTokenFormatTests.claims) throws {
            (publicKey, privateKey) = try format.makeKeyPair()
            token = try format.sign(claims, keyID: ES256AccessTokenFormatTests.keyID, privateKey: privateKey)
        }

        var parts: [String] { token.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

        func verifies(_ token: String) -> Bool {
            guard let parsed = format.parse(token) else { return false }
            return format.verifySignature(of: parsed, with: publicKey)
        }
    }

    private static func text(_ part: String) -> String? {
        Base64URL.decode(part).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theHeaderAndClaimsAreExactlyTheSpecs() throws {
        let s = try Signed()
        #expect(s.parts.count == 3)
        #expect(Self.text(s.parts[0]) == #"{"alg":"ES256","kid":"AAECAwQFBgcICQoLDA0ODw","typ":"at+jwt"}"#)
        #expect(
            Self.text(s.parts[1])
                == #"{"amr":["pop","user","mfa"],"aud":"https://api.example.com","auth_time":1796390000,"#
                + #""exp":1796391178,"iat":1796390878,"iss":"https://auth.example.com","#
                + #""jti":"0f0304ba-2090-4cec-b761-145d2561625e","method":"passkey","#
                + #""sid":"1b3d47ab-c5c0-4269-a18b-5ac1f73bc52c","stage":"password-and-passkey","#
                + #""sub":"47e55d1f-0b0e-4c64-b794-62d1b8ee5bad"}"#)
        let parsed = try #require(s.format.parse(s.token))
        #expect(parsed.keyID == Self.keyID)
        #expect(parsed.claims == Self.claims)
    }

    @Test func theSignatureIsRAndSOverTheSigningInput() throws {
        let s = try Signed()
        let raw = try #require(Base64URL.decode(s.parts[2]))
        #expect(raw.count == 64)
        // OpenSSL, given the DER form of r ‖ s, verifies it over `header.payload`.
        let key = try PublicKey.ec(curve: .p256, x: s.publicKey.x, y: s.publicKey.y)
        let der = try #require(ECDSASignature.der(fromRaw: raw))
        #expect(key.verify(signature: der, message: Array("\(s.parts[0]).\(s.parts[1])".utf8), scheme: .ecdsa(.sha256)))
        #expect(s.verifies(s.token))
        // Each key pair is new.
        let other = try s.format.makeKeyPair()
        #expect(other.publicKey != s.publicKey)
        #expect(other.privateKey != s.privateKey)
    }

    @Test func aChangedByteOrAnotherKeyFailsTheSignature() throws {
        let s = try Signed()
        let other = try Signed()
        #expect(!s.format.verifySignature(of: try #require(s.format.parse(s.token)), with: other.publicKey))
        // Another claim (the account's stage upgraded by hand) over the same signature.
        var payload = try #require(Self.text(s.parts[1]))
        payload = payload.replacingOccurrences(of: "password-and-passkey", with: "passkey-only")
        let edited = [s.parts[0], Base64URL.encode(Array(payload.utf8)), s.parts[2]].joined(separator: ".")
        #expect(s.format.parse(edited)?.claims.stage == .passkeyOnly)
        #expect(!s.verifies(edited))
        // One bit of the signature.
        var signature = try #require(Base64URL.decode(s.parts[2]))
        signature[10] ^= 1
        #expect(!s.verifies([s.parts[0], s.parts[1], Base64URL.encode(signature)].joined(separator: ".")))
    }

    @Test func anotherAlgorithmOrHeaderIsNotOurs() throws {
        let s = try Signed()
        let headers = [
            #"{"alg":"none","kid":"AAECAwQFBgcICQoLDA0ODw","typ":"at+jwt"}"#,
            #"{"alg":"HS256","kid":"AAECAwQFBgcICQoLDA0ODw","typ":"at+jwt"}"#,
            #"{"alg":"ES256","kid":"AAECAwQFBgcICQoLDA0ODw","typ":"JWT"}"#,
            #"{"alg":"ES256","kid":"AAECAwQFBgcICQoLDA0ODw","typ":"at+jwt","crit":["exp"]}"#,
            #"{"alg":"ES256","kid":"AAECAwQFBgcICQoLDA0ODw","typ":"at+jwt","jku":"https://evil.example"}"#,
            #"{"alg":"ES256","typ":"at+jwt"}"#,
            #"{"alg":"ES256","kid":7,"typ":"at+jwt"}"#,
            "not json",
        ]
        for header in headers {
            let token = [Base64URL.encode(Array(header.utf8)), s.parts[1], s.parts[2]].joined(separator: ".")
            #expect(s.format.parse(token) == nil, "\(header)")
        }
        // `alg: none` with no signature at all.
        let none = Base64URL.encode(Array(#"{"alg":"none","typ":"at+jwt"}"#.utf8)) + "." + s.parts[1] + "."
        #expect(s.format.parse(none) == nil)
    }

    @Test func aClaimMissingOrOfAnotherTypeIsNotOurs() throws {
        let s = try Signed()
        let payload = try #require(Self.text(s.parts[1]))
        let edits = [
            payload.replacingOccurrences(of: #""exp":1796391178"#, with: #""exp":"1796391178""#),
            payload.replacingOccurrences(of: #""exp":1796391178"#, with: #""exp":1796391178.5"#),
            payload.replacingOccurrences(of: #""iss":"https://auth.example.com","#, with: ""),
            payload.replacingOccurrences(of: #""stage":"password-and-passkey""#, with: #""stage":"gold""#),
            payload.replacingOccurrences(of: #""method":"passkey""#, with: #""method":"magic""#),
            payload.replacingOccurrences(of: #""sub":"47e55d1f-0b0e-4c64-b794-62d1b8ee5bad""#, with: #""sub":"root""#),
        ]
        for edit in edits {
            #expect(edit != payload)
            let token = [s.parts[0], Base64URL.encode(Array(edit.utf8)), s.parts[2]].joined(separator: ".")
            #expect(s.format.parse(token) == nil, "\(edit)")
        }
        // Whitespace and escapes are still JSON: read by the general decoder, same claims.
        let spaced = payload.replacingOccurrences(of: ",", with: ", ").replacingOccurrences(of: "/", with: #"\/"#)
        let token = [s.parts[0], Base64URL.encode(Array(spaced.utf8)), s.parts[2]].joined(separator: ".")
        #expect(s.format.parse(token)?.claims == Self.claims)
    }

    @Test func onlyThreeBase64URLPartsOfBoundedLengthLookSigned() throws {
        let s = try Signed()
        #expect(s.format.looksSigned(s.token))
        for token in [
            "a.b", "a.b.c.d", s.token + "=", String(s.token.dropLast()) + "+",
            String(repeating: "a", count: 4000) + "." + String(repeating: "b", count: 100) + ".c", "",
        ] {
            #expect(!s.format.looksSigned(token) || s.format.parse(token) == nil, "\(token.prefix(40))")
        }
        #expect(
            !s.format.looksSigned(String(repeating: "a", count: ES256AccessTokenFormat.maximumTokenLength) + ".b.c"))
        // A signature of another length.
        let short = [s.parts[0], s.parts[1], Base64URL.encode(Array(repeating: 1, count: 63))].joined(separator: ".")
        #expect(s.format.parse(short) == nil)
    }

    @Test func aVerifiedSignatureIsRememberedForItsKeyOnly() throws {
        let s = try Signed()
        let other = try Signed()
        let parsed = try #require(s.format.parse(s.token))
        #expect(s.format.verifySignature(of: parsed, with: s.publicKey))
        #expect(s.format.verifySignature(of: parsed, with: s.publicKey), "again, from what was remembered")
        // The same bytes presented with another key are checked, and fail.
        #expect(!s.format.verifySignature(of: parsed, with: other.publicKey))
        // A failure is never remembered as a success.
        var signature = parsed.signature
        signature[0] ^= 1
        let forged = ParsedAccessToken(
            keyID: parsed.keyID, claims: parsed.claims, signingInput: parsed.signingInput, signature: signature)
        #expect(!s.format.verifySignature(of: forged, with: s.publicKey))
        #expect(!s.format.verifySignature(of: forged, with: s.publicKey))
    }

    @Test func theRememberedSignaturesAreBounded() {
        let remembered = VerifiedSignatures(generationSize: 2)
        let key = ECPublicKeyCoordinates(x: Array(repeating: 1, count: 32), y: Array(repeating: 2, count: 32))
        func entry(_ n: UInt8) -> VerifiedSignatures.Entry {
            VerifiedSignatures.Entry(signingInput: [n], signature: [n], publicKey: key)
        }
        for n in 0..<10 { remembered.insert(entry(UInt8(n))) }
        #expect(remembered.count <= 4)
        #expect(remembered.contains(entry(9)))
        #expect(!remembered.contains(entry(0)))
        // One in use survives the generations that pass it by.
        for n in 10..<30 {
            remembered.insert(entry(UInt8(n)))
            #expect(remembered.contains(entry(9)))
        }
        #expect(remembered.count <= 4)
    }
}
