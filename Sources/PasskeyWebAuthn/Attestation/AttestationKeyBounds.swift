internal import PasskeyApplication
internal import PasskeyOpenSSL

/// The contract's bound on RSA keys (a 2048–4096-bit modulus and the exponent 65537), applied to
/// the keys of attestation certificates too: they sign like the credential key, and an
/// attacker picks them as freely. Checked before any signature is computed with them, so an
/// oversized key costs nothing but its parse.
enum AttestationKeyBounds {
    /// True for every key that is not RSA, and for an RSA key within the bounds.
    static func allow(_ key: PublicKey) -> Bool {
        guard case .rsa(let bits) = key.kind else { return true }
        return COSEKey.rsaModulusBits.contains(bits) && key.rsaPublicExponent == COSEKey.rsaExponent
    }

    /// `unsupportedAlgorithm` (the credential key's answer) for an RSA key outside the bounds.
    static func require(_ key: PublicKey) throws(CredentialVerificationFailure) {
        guard allow(key) else { throw .unsupportedAlgorithm }
    }
}
