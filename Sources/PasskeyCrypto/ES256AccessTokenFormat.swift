internal import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import PasskeyJSON
internal import PasskeyOpenSSL
internal import PasskeyWire
internal import Synchronization

/// `AccessTokenFormat` as JWS compact serialisation (RFC 7515) with ES256 (RFC 7518 §3.4) on
/// OpenSSL: header `{"alg":"ES256","kid":…,"typ":"at+jwt"}`, the claims of `AccessTokenClaims`,
/// the signature as `r ‖ s`. Reading accepts exactly that shape and nothing else: another `alg`
/// (`none`, `HS256`, …), another `typ`, a `crit` header, an unknown `kid`, a claim missing or of
/// another type, padding or a byte outside base64url.
package final class ES256AccessTokenFormat: AccessTokenFormat {
    /// Longer tokens are not ours (ours are about 600 bytes); refused before any work.
    package static let maximumTokenLength = 4096

    private let privateKeys = Mutex<[SigningKeyID: PrivateKey]>([:])
    private let publicKeys = Mutex<[SigningKeyID: (coordinates: ECPublicKeyCoordinates, key: PublicKey)]>([:])
    private let verified = VerifiedSignatures()

    package init() {}

    package func makeKeyPair() throws(AccessTokenFormatError) -> (
        publicKey: ECPublicKeyCoordinates, privateKey: [UInt8]
    ) {
        do {
            let key = try PrivateKey.generateEC(curve: .p256)
            let (x, y) = try key.ecCoordinates()
            return (ECPublicKeyCoordinates(x: x, y: y), try key.derEncoded())
        } catch {
            throw AccessTokenFormatError(cause: error.operation)
        }
    }

    package func sign(_ claims: AccessTokenClaims, keyID id: SigningKeyID, privateKey der: [UInt8])
        throws(AccessTokenFormatError) -> String
    {
        let key = try signingKey(id, der: der)
        let input = Base64URL.encode(Self.header(id)) + "." + Base64URL.encode(Self.payload(claims))
        do {
            let signature = try key.sign(Array(input.utf8), scheme: .ecdsa(.sha256))
            guard let raw = ECDSASignature.raw(fromDER: signature, coordinateLength: 32) else {
                throw AccessTokenFormatError(cause: "ECDSA signature not DER")
            }
            return input + "." + Base64URL.encode(raw)
        } catch let error as AccessTokenFormatError {
            throw error
        } catch {
            throw AccessTokenFormatError(cause: "EVP_DigestSign")
        }
    }

    package func looksSigned(_ token: String) -> Bool {
        let utf8 = token.utf8
        guard utf8.count <= Self.maximumTokenLength else { return false }
        var dots = 0
        for byte in utf8 {
            if byte == UInt8(ascii: ".") {
                dots += 1
            } else if !Self.isBase64URL(byte) {
                return false
            }
        }
        return dots == 2
    }

    package func parse(_ token: String) -> ParsedAccessToken? {
        guard looksSigned(token) else { return nil }
        let utf8 = Array(token.utf8)
        guard let firstDot = utf8.firstIndex(of: UInt8(ascii: ".")),
            let secondDot = utf8[(firstDot + 1)...].firstIndex(of: UInt8(ascii: ".")),
            firstDot > 0, secondDot > firstDot + 1, secondDot < utf8.count - 1,
            let headerBytes = Base64URL.decode(String(decoding: utf8[..<firstDot], as: UTF8.self)),
            let payloadBytes = Base64URL.decode(String(decoding: utf8[(firstDot + 1)..<secondDot], as: UTF8.self)),
            let signature = Base64URL.decode(String(decoding: utf8[(secondDot + 1)...], as: UTF8.self)),
            signature.count == 64,
            let header = Self.header(headerBytes), header["alg"] == "ES256", header["typ"] == "at+jwt",
            let kid = header["kid"].flatMap(SigningKeyID.init), let claims = Self.claims(payloadBytes)
        else { return nil }
        return ParsedAccessToken(
            keyID: kid, claims: claims, signingInput: Array(utf8[..<secondDot]), signature: signature)
    }

    /// A signature that verified once is remembered (`VerifiedSignatures`): a gateway introspects
    /// the same JWT on every request of its life, and the check is the costliest step. Only
    /// successes are kept, with the exact key they verified with; every failure costs the full
    /// check, so an inactive token answers in the same time whatever it is.
    package func verifySignature(of parsed: ParsedAccessToken, with coordinates: ECPublicKeyCoordinates) -> Bool {
        let signed = VerifiedSignatures.Entry(
            signingInput: parsed.signingInput, signature: parsed.signature, publicKey: coordinates)
        if verified.contains(signed) { return true }
        guard let publicKey = publicKey(parsed.keyID, coordinates),
            let der = ECDSASignature.der(fromRaw: parsed.signature),
            publicKey.verify(signature: der, message: parsed.signingInput, scheme: .ecdsa(.sha256))
        else { return false }
        verified.insert(signed)
        return true
    }

    // MARK: Keys, parsed once per process

    private func signingKey(_ id: SigningKeyID, der: [UInt8]) throws(AccessTokenFormatError) -> PrivateKey {
        if let key = privateKeys.withLock({ $0[id] }) { return key }
        do {
            let key = try PrivateKey(der: der)
            privateKeys.withLock { $0[id] = key }
            return key
        } catch {
            throw AccessTokenFormatError(cause: error.operation)
        }
    }

    private func publicKey(_ id: SigningKeyID, _ coordinates: ECPublicKeyCoordinates) -> PublicKey? {
        if let cached = publicKeys.withLock({ $0[id] }), cached.coordinates == coordinates { return cached.key }
        guard let key = try? PublicKey.ec(curve: .p256, x: coordinates.x, y: coordinates.y) else { return nil }
        publicKeys.withLock { $0[id] = (coordinates, key) }
        return key
    }

    // MARK: JSON

    static func header(_ id: SigningKeyID) -> [UInt8] {
        var writer = JSONWriter(capacity: 80)
        writer.object { object in
            object.field("alg", "ES256")
            object.field("kid", id.value)
            object.field("typ", "at+jwt")
        }
        return writer.bytes
    }

    /// The claims, keys in sorted order; times as whole seconds since 1970.
    static func payload(_ claims: AccessTokenClaims) -> [UInt8] {
        var writer = JSONWriter(capacity: 400)
        writer.object { object in
            object.key("amr")
            object.array { array in for value in claims.authenticationMethods { array.string(value) } }
            object.field("aud", claims.audience)
            object.key("auth_time")
            object.integer(Int(claims.authTime.timeIntervalSince1970))
            object.key("exp")
            object.integer(Int(claims.expiresAt.timeIntervalSince1970))
            object.key("iat")
            object.integer(Int(claims.issuedAt.timeIntervalSince1970))
            object.field("iss", claims.issuer)
            object.field("jti", claims.tokenID.uuidString.lowercased())
            object.field("method", claims.method.rawValue)
            object.field("sid", claims.sessionID.description)
            object.field("stage", claims.stage.rawValue)
            object.field("sub", claims.subject.description)
        }
        return writer.bytes
    }

    /// The header: exactly `alg`, `kid` and `typ`, all strings (so no `crit`, `jku`, `x5u`).
    private static func header(_ bytes: [UInt8]) -> [String: String]? {
        var header: [String: String] = [:]
        if let flat = FlatJSONObject(bytes) {
            for (name, value) in flat.members {
                guard case .string(let text) = value else { return nil }
                header[name] = text
            }
        } else if let decoded = try? JSONDecoder().decode([String: String].self, from: Data(bytes)) {
            header = decoded
        } else {
            return nil
        }
        return header.count == 3 ? header : nil
    }

    /// The claims as minted: every one present, of its type (a number where a string belongs,
    /// a fraction or a boolean where whole seconds belong, is not ours).
    struct Payload: Decodable {
        let iss: String
        let aud: String
        let sub: String
        let sid: String
        let jti: String
        let iat: Int
        let exp: Int
        let authTime: Int
        let amr: [String]
        let method: String
        let stage: String

        enum CodingKeys: String, CodingKey {
            case iss, aud, sub, sid, jti, iat, exp, amr, method, stage
            case authTime = "auth_time"
        }
    }

    private static func claims(_ bytes: [UInt8]) -> AccessTokenClaims? {
        // Our own tokens take the fast path (every introspection of a JWT reads one); anything
        // it does not read (an escape, whitespace) goes to JSONDecoder, which decides.
        guard let payload = FlatClaims.read(bytes) ?? (try? JSONDecoder().decode(Payload.self, from: Data(bytes))),
            let subject = AccountID(string: payload.sub), let session = UUID(uuidString: payload.sid),
            let tokenID = UUID(uuidString: payload.jti), let method = AuthenticationMethod(rawValue: payload.method),
            let stage = MigrationStage(rawValue: payload.stage)
        else { return nil }
        return AccessTokenClaims(
            issuer: payload.iss, audience: payload.aud, subject: subject, sessionID: SessionID(session),
            tokenID: tokenID, issuedAt: Date(timeIntervalSince1970: TimeInterval(payload.iat)),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(payload.exp)),
            authTime: Date(timeIntervalSince1970: TimeInterval(payload.authTime)),
            authenticationMethods: payload.amr, method: method, stage: stage)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
    }
}

/// The signatures that verified lately: at most `2 × generationSize` entries (about 1.5 MB at
/// 600-byte tokens), in two generations: a hit in the older one moves up, and when the newer
/// fills, the older is dropped whole. A token in use stays; one unused for a generation goes.
final class VerifiedSignatures: Sendable {
    struct Entry: Hashable, Sendable {
        let signingInput: [UInt8]
        let signature: [UInt8]
        let publicKey: ECPublicKeyCoordinates
    }

    private struct Generations {
        var newer: Set<Entry> = []
        var older: Set<Entry> = []
    }

    let generationSize: Int
    private let generations = Mutex(Generations())

    init(generationSize: Int = 1024) { self.generationSize = generationSize }

    func contains(_ entry: Entry) -> Bool {
        generations.withLock { g in
            if g.newer.contains(entry) { return true }
            guard g.older.remove(entry) != nil else { return false }
            Self.add(entry, to: &g, size: generationSize)
            return true
        }
    }

    func insert(_ entry: Entry) {
        generations.withLock { Self.add(entry, to: &$0, size: generationSize) }
    }

    var count: Int { generations.withLock { $0.newer.count + $0.older.count } }

    private static func add(_ entry: Entry, to g: inout Generations, size: Int) {
        if g.newer.count >= size {
            g.older = g.newer
            g.newer = []
        }
        g.newer.insert(entry)
    }
}
