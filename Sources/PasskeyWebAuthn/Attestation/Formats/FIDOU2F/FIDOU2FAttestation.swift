internal import PasskeyApplication
internal import PasskeyOpenSSL

/// `fido-u2f` (WebAuthn L3 §8.6).
enum FIDOU2FAttestation {
    static func verify(_ input: AttestationInput) throws(CredentialVerificationFailure) -> AttestationResult {
        guard case .bytes(let signature)? = input.statement[text: "sig"],
            let certificates = try X5CChain.parse(input.statement), certificates.count == 1,
            let leaf = certificates.first, let leafKey = try? leaf.publicKey(), leafKey.kind == .ec(.p256)
        else { throw .invalidAttestation }
        // Step 3: the credential key must be an ES256 P-256 key; its point in uncompressed form.
        guard input.credentialKey.algorithm == .es256,
            case .ec2(.p256, let x, let y) = input.credentialKey.parameters
        else { throw .invalidAttestation }
        // Steps 4–5: verificationData = 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ publicKeyU2F.
        let verificationData: [UInt8] =
            [0x00] + input.authenticatorData.relyingPartyIDHash + input.clientDataHash
            + input.credential.credentialID + [0x04] + x + y
        guard leafKey.verify(signature: signature, message: verificationData, scheme: .ecdsa(.sha256)) else {
            throw .invalidAttestation
        }
        return AttestationResult(type: .basic, trustPath: certificates)
    }
}
