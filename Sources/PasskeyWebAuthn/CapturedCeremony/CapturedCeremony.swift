/// One captured ceremony in the schema of `webauthn-vectors/README.md`: a response from a
/// real authenticator plus the relying party's expectations. Used by `verify-response` and the
/// conformance tests.
package struct CapturedCeremony: Decodable, Sendable {
    package enum Kind: String, Decodable, Sendable {
        case registration, authentication
    }

    /// The response fields, base64url without padding.
    package struct Response: Decodable, Sendable {
        package var credentialId: String
        package var clientDataJSON: String
        package var attestationObject: String?
        package var authenticatorData: String?
        package var signature: String?
        package var userHandle: String?
    }

    /// What a conforming verifier must conclude.
    package struct Expected: Decodable, Sendable {
        package var ok: Bool
        package var error: String?
        package var attestationFormat: String?
        package var attestationType: String?
        package var credentialId: String?
        package var signCount: UInt32?
        package var alg: Int?
        package var credentialPublicKey: String?
        package var aaguid: String?
        package var userPresent: Bool?
        package var userVerified: Bool?
        package var backupEligible: Bool?
        package var backupState: Bool?
    }

    package var name: String
    package var ceremony: Kind
    package var rpId: String
    package var origin: String
    package var challenge: String
    package var requireUserVerification: Bool
    package var requireUserPresence: Bool?
    package var response: Response
    package var credentialPublicKey: String?
    package var storedSignCount: UInt32?
    package var expected: Expected
    /// ISO 8601 instant at which certificates are evaluated.
    package var verifyAt: String?
    package var trustAnchorsPEM: [String]?
    /// COSE algorithms the RP offered; absent means every implemented algorithm.
    package var allowedAlgorithms: [Int]?
}
