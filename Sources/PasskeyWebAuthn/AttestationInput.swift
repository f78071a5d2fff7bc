internal import PasskeyOpenSSL

/// What every attestation verification procedure receives (WebAuthn L3 §8 intro):
/// attStmt, authenticatorData and the hash of the serialized client data.
struct AttestationInput {
    let statement: CBORValue
    let authenticatorData: AuthenticatorData
    let clientDataHash: [UInt8]
    let credential: AttestedCredentialData
    let credentialKey: COSEKey

    /// authenticatorData ‖ clientDataHash, what packed and apple sign or hash.
    var signedBytes: [UInt8] { authenticatorData.rawBytes + clientDataHash }
}
