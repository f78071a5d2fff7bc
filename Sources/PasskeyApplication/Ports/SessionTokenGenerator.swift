/// A new bearer token and the digest stored in its place.
package struct SessionToken: Sendable {
    /// Given to the client once; never stored.
    package let token: String
    /// SHA-256 of the token, the only thing stored.
    package let digest: [UInt8]

    package init(token: String, digest: [UInt8]) {
        self.token = token
        self.digest = digest
    }
}

/// Makes bearer tokens (32 CSPRNG bytes, base64url) and digests presented ones.
package protocol SessionTokenGenerator: Sendable {
    func makeToken() -> SessionToken
    /// The digest to look a presented token up by; nil when it cannot be one of ours.
    func digest(ofPresentedToken token: String) -> [UInt8]?
}
