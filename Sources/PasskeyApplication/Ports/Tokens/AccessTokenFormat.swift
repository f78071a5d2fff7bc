package import PasskeyDomain

/// The access tokens' wire format and cryptography (the adapter: JWS compact serialisation,
/// ES256 on OpenSSL). The rules (which key, which claims, when a token is good) are the use
/// cases'; this only makes keys, signs and reads.
package protocol AccessTokenFormat: Sendable {
    /// A new P-256 key pair from the CSPRNG: the public coordinates, and the private key's DER
    /// (a secret: sealed before it is stored, never logged).
    func makeKeyPair() throws(AccessTokenFormatError) -> (publicKey: ECPublicKeyCoordinates, privateKey: [UInt8])

    /// The compact JWS of `claims` (header `{"alg":"ES256","typ":"at+jwt","kid":…}`), signed
    /// with the private key `privateKey` (DER) of key `id`.
    func sign(_ claims: AccessTokenClaims, keyID id: SigningKeyID, privateKey: [UInt8])
        throws(AccessTokenFormatError) -> String

    /// Whether `token` is shaped like a JWS (three base64url parts): what introspection tells
    /// apart from an opaque session token.
    func looksSigned(_ token: String) -> Bool

    /// `token` read but not yet trusted: its key ID and claims when it is one of ours in form
    /// (ES256, `at+jwt`, exactly those header members, every claim of the right type); nil for
    /// anything else (`alg` `none` or `HS256`, another `typ`, a `crit` header, …).
    func parse(_ token: String) -> ParsedAccessToken?

    /// Whether the signature of `parsed` verifies with `publicKey`.
    func verifySignature(of parsed: ParsedAccessToken, with publicKey: ECPublicKeyCoordinates) -> Bool
}

/// A token in our form whose signature is not checked yet (`AccessTokenFormat.parse`).
package struct ParsedAccessToken: Sendable {
    package let keyID: SigningKeyID
    package let claims: AccessTokenClaims
    /// `header.payload`, what the signature covers, and the signature (`r ‖ s`).
    package let signingInput: [UInt8]
    package let signature: [UInt8]

    package init(keyID: SigningKeyID, claims: AccessTokenClaims, signingInput: [UInt8], signature: [UInt8]) {
        self.keyID = keyID
        self.claims = claims
        self.signingInput = signingInput
        self.signature = signature
    }
}

/// A token whose signature verified: its key and claims (`iss`, `exp` and the session are the
/// use case's to check).
package struct VerifiedAccessToken: Hashable, Sendable {
    package let keyID: SigningKeyID
    package let claims: AccessTokenClaims

    package init(keyID: SigningKeyID, claims: AccessTokenClaims) {
        self.keyID = keyID
        self.claims = claims
    }
}

/// The cryptographic library refused to make a key or a signature; `cause` is for the log.
package struct AccessTokenFormatError: Error, Hashable, Sendable {
    package let cause: String

    package init(cause: String) { self.cause = cause }
}
