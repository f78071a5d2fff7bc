internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// `packed` (WebAuthn L3 §8.2): self attestation or an x5c chain; ECDAA (removed in L3) is refused.
enum PackedAttestation {
    /// id-fido-gen-ce-aaguid.
    static let aaguidExtensionOID = "1.3.6.1.4.1.45724.1.1.4"

    static func verify(_ input: AttestationInput) throws(CredentialVerificationFailure) -> AttestationResult {
        let statement = input.statement
        guard let algValue = statement[text: "alg"]?.integer, case .bytes(let signature)? = statement[text: "sig"],
            statement[text: "ecdaaKeyId"] == nil
        else { throw .invalidAttestation }
        guard let certificates = try X5CChain.parse(statement) else {
            // Self attestation: alg equals the credential's, signature by the credential key.
            guard algValue == input.credentialKey.algorithm.rawValue,
                input.credentialKey.verify(signature: signature, message: input.signedBytes)
            else { throw .invalidAttestation }
            return AttestationResult(type: .self, trustPath: [])
        }
        guard let algorithm = COSEAlgorithm(rawValue: algValue), let leaf = certificates.first,
            let leafKey = try? leaf.publicKey()
        else { throw .invalidAttestation }
        // The cheap checks first: the certificate's requirements and its key's size, then the signature.
        try checkCertificateRequirements(leaf, aaguid: input.credential.aaguid)
        try AttestationKeyBounds.require(leafKey)
        guard leafKey.verify(signature: signature, message: input.signedBytes, scheme: COSEKey.scheme(for: algorithm))
        else { throw .invalidAttestation }
        // Basic and AttCA cannot be told apart without metadata: reported as basic.
        return AttestationResult(type: .basic, trustPath: certificates)
    }

    /// WebAuthn L3 §8.2.1: packed attestation statement certificate requirements.
    static func checkCertificateRequirements(_ leaf: Certificate, aaguid: AAGUID)
        throws(CredentialVerificationFailure)
    {
        guard leaf.version == 3 else { throw .invalidAttestation }
        let country = leaf.subject(.country)
        let organization = leaf.subject(.organization)
        let unit = leaf.subject(.organizationalUnit)
        let commonName = leaf.subject(.commonName)
        guard country.count == 1, let c = country.first, c.utf8.count == 2,
            organization.count == 1, organization.first?.isEmpty == false,
            unit == ["Authenticator Attestation"],
            commonName.count == 1, commonName.first?.isEmpty == false
        else { throw .invalidAttestation }
        guard leaf.basicConstraintsCA == false else { throw .invalidAttestation }
        try checkAAGUIDExtension(leaf, aaguid: aaguid)
    }

    /// §8.2.1 / §8.3.1: id-fido-gen-ce-aaguid (an OCTET STRING), when present, equals the authData AAGUID.
    static func checkAAGUIDExtension(_ certificate: Certificate, aaguid: AAGUID) throws(CredentialVerificationFailure) {
        if let value = certificate.extensionValue(oid: aaguidExtensionOID) {
            guard let bytes = DERReader.single(value, tag: DERElement.octetString), bytes == aaguid.bytes else {
                throw .invalidAttestation
            }
        }
    }
}
