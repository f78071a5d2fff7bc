package import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// Builds an assertion (authentication response) from a real key; every field can be changed.
package struct SoftwareAuthenticatorAssertion: Sendable {
    package var key: SoftwareAuthenticatorKey
    package var clientData: SoftwareAuthenticatorClientData
    /// Replaces the serialised client data entirely when set.
    package var clientDataJSON: [UInt8]?
    package var relyingPartyID: String
    /// Replaces SHA-256(relyingPartyID) when set.
    package var relyingPartyIDHash: [UInt8]?
    package var flags = SoftwareAuthenticatorFlags()
    package var signCount: UInt32 = 1
    package var credentialID = SecureRandom.bytes(count: 32)
    package var userHandle: [UInt8]? = SecureRandom.bytes(count: 16)
    package var extensions: SoftwareAuthenticatorCBOR?
    /// Replaces the authenticator data bytes (the signature covers the replacement).
    package var authenticatorDataOverride: [UInt8]?
    /// Flips a bit of the signature.
    package var corruptSignature = false

    package init(key: SoftwareAuthenticatorKey, relyingPartyID: String, origin: String, challenge: [UInt8]) {
        self.key = key
        self.relyingPartyID = relyingPartyID
        self.clientData = SoftwareAuthenticatorClientData(type: "webauthn.get", challenge: challenge, origin: origin)
    }

    /// The authenticator data bytes (no attested credential data).
    package func authenticatorData() -> [UInt8] {
        if let authenticatorDataOverride { return authenticatorDataOverride }
        var bytes = relyingPartyIDHash ?? Digest.sha256(Array(relyingPartyID.utf8))
        bytes.append(flags.byte(hasAttestedCredentialData: false, hasExtensions: extensions != nil))
        bytes += withUnsafeBytes(of: signCount.bigEndian, Array.init)
        if let extensions { bytes += extensions.encoded }
        return bytes
    }

    /// The response as the client would send it, signed over authData ‖ SHA-256(clientDataJSON).
    package func makeResponse() throws -> AuthenticationResponse {
        let clientDataJSON = self.clientDataJSON ?? clientData.json
        let authData = authenticatorData()
        var signature = try key.sign(authData + Digest.sha256(clientDataJSON))
        if corruptSignature, !signature.isEmpty { signature[signature.count / 2] ^= 0x01 }
        guard let typedCredentialID = CredentialID(bytes: credentialID) else {
            throw SoftwareAuthenticatorError.invalidCredentialID
        }
        return AuthenticationResponse(
            credentialID: typedCredentialID, clientDataJSON: clientDataJSON, authenticatorData: authData,
            signature: signature, userHandle: userHandle)
    }
}

/// A software-authenticator setting that cannot make a response.
package enum SoftwareAuthenticatorError: Error, Hashable, Sendable {
    /// `makeResponse()` needs a credential ID of 1 to 1023 bytes (the verifier's input type).
    case invalidCredentialID
}
