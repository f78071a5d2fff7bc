internal import PasskeyApplication
internal import PasskeyOpenSSL

/// `apple` anonymous attestation (WebAuthn L3 §8.8).
enum AppleAttestation {
    /// The Apple nonce extension.
    static let nonceExtensionOID = "1.2.840.113635.100.8.2"

    static func verify(_ input: AttestationInput) throws(CredentialVerificationFailure) -> AttestationResult {
        guard let certificates = try X5CChain.parse(input.statement), let leaf = certificates.first else {
            throw .invalidAttestation
        }
        // Steps 2–4: nonce = SHA-256(authenticatorData ‖ clientDataHash) equals the extension's value.
        let nonce = Digest.sha256(input.signedBytes)
        guard let value = leaf.extensionValue(oid: nonceExtensionOID), let found = extractNonce(value),
            ConstantTime.equals(found, nonce)
        else { throw .invalidAttestation }
        // Step 5: the credential public key equals the leaf's subject public key.
        guard let leafKey = try? leaf.publicKey(), leafKey.isSameKey(as: input.credentialKey.publicKey) else {
            throw .invalidAttestation
        }
        return AttestationResult(type: .anonCA, trustPath: certificates)
    }

    /// The extension value is `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
    static func extractNonce(_ value: [UInt8]) -> [UInt8]? {
        guard let sequence = DERReader.single(value, tag: 0x30), let tagged = DERReader.single(sequence, tag: 0xA1)
        else { return nil }
        return DERReader.single(tagged, tag: 0x04)
    }
}
