internal import Foundation
internal import PasskeyOpenSSL

/// What every attestation verification procedure receives (WebAuthn L3 §8 intro):
/// attStmt, authenticatorData and the hash of the serialized client data; plus the verification
/// time (SafetyNet freshness, §8.5).
struct AttestationInput {
    let statement: CBORValue
    let authenticatorData: AuthenticatorData
    let clientDataHash: [UInt8]
    let credential: AttestedCredentialData
    let credentialKey: COSEKey
    let verificationTime: Date

    /// authenticatorData ‖ clientDataHash, what packed and apple sign or hash.
    var signedBytes: [UInt8] { authenticatorData.rawBytes + clientDataHash }
}
