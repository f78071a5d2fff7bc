package import PasskeyDomain

/// The attested credential data inside authenticator data (WebAuthn L3 §6.5.2).
package struct AttestedCredentialData: Sendable {
    package let aaguid: AAGUID
    /// The raw credential ID (its ≤ 1023-byte limit is checked by the verifier, WebAuthn L3 §7.1 step 25).
    package let credentialID: [UInt8]
    /// The COSE_Key bytes exactly as they stand in authenticator data.
    package let publicKeyBytes: [UInt8]
    /// The decoded COSE_Key map (not yet interpreted: see `COSEKey`).
    package let publicKey: CBORValue
}
