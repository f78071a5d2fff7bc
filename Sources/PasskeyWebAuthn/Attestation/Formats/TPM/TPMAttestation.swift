internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// `tpm` (WebAuthn L3 §8.3): the credential key is a TPM object certified by an attestation
/// identity key (AIK) whose certificate is x5c[0].
///
/// SHA-1: `alg` RS1 (−65535) is accepted as the AIK signature algorithm, because Windows Hello
/// TPMs sign certInfo with RSASSA-PKCS1-v1_5/SHA-1 to this day (every captured TPM vector does)
/// and py_webauthn and SimpleWebAuthn accept it. The certified credential key itself must still
/// be one of the configured algorithms (RS1 is never offered by default). See docs/webauthn.md.
enum TPMAttestation {
    /// attStmt.ver: the only TPM version defined.
    static let version = "2.0"

    static func verify(_ input: AttestationInput) throws(CredentialVerificationFailure) -> AttestationResult {
        let statement = input.statement
        // Step 1: attStmt syntax; ECDAA (removed in L3) is refused.
        guard case .text(version)? = statement[text: "ver"], let algValue = statement[text: "alg"]?.integer,
            let algorithm = COSEAlgorithm(rawValue: algValue), case .bytes(let signature)? = statement[text: "sig"],
            case .bytes(let certInfoBytes)? = statement[text: "certInfo"],
            case .bytes(let pubAreaBytes)? = statement[text: "pubArea"], statement[text: "ecdaaKeyId"] == nil
        else { throw .invalidAttestation }
        // Step 2: the key in pubArea's parameters and unique fields is the credential public key.
        guard let pubArea = TPMTPublic(bytes: pubAreaBytes),
            keyMatches(pubArea.key, input.credentialKey.parameters)
        else { throw .invalidAttestation }
        // Steps 3–4: certInfo is a TPMS_ATTEST of type TPM_ST_ATTEST_CERTIFY made by a TPM, its
        // extraData is the hash (with alg's hash function) of attToBeSigned, and it certifies
        // the Name of pubArea. qualifiedSigner, clockInfo and firmwareVersion are ignored.
        guard let certInfo = TPMSAttest(bytes: certInfoBytes), let hash = COSEKey.digest(for: algorithm),
            ConstantTime.equals(certInfo.extraData, Digest.hash(hash, input.signedBytes)),
            let name = pubArea.name, ConstantTime.equals(certInfo.attestedName, name)
        else { throw .invalidAttestation }
        // Step 5: x5c, and sig over certInfo by the AIK certificate's key with alg.
        guard let certificates = try X5CChain.parse(statement), let aik = certificates.first,
            let aikKey = try? aik.publicKey()
        else { throw .invalidAttestation }
        try AttestationKeyBounds.require(aikKey)
        guard aikKey.verify(signature: signature, message: certInfoBytes, scheme: COSEKey.scheme(for: algorithm))
        else { throw .invalidAttestation }
        // Step 5: §8.3.1 certificate requirements and the AAGUID extension.
        try TPMCertificateRequirements.check(aik, aaguid: input.credential.aaguid)
        return AttestationResult(type: .attCA, trustPath: certificates)
    }

    /// Whether pubArea holds the same public key as the COSE credential key: the same RSA
    /// modulus and exponent (as integers), or the same curve and point.
    static func keyMatches(_ key: TPMTPublic.Key, _ parameters: COSEKey.Parameters) -> Bool {
        switch (key, parameters) {
        case (.rsa(let modulus, let exponent), .rsa(let coseModulus, let coseExponent)):
            let trimmed = coseExponent.drop { $0 == 0 }
            guard trimmed.count <= 4 else { return false }
            let value = trimmed.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return value == exponent && ConstantTime.equals(stripZeros(modulus), stripZeros(coseModulus))
        case (.ecc(let curve, let x, let y), .ec2(let coseCurve, let coseX, let coseY)):
            return curve == coseCurve && ConstantTime.equals(x, coseX) && ConstantTime.equals(y, coseY)
        default:
            return false
        }
    }

    private static func stripZeros(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.drop { $0 == 0 }) }
}
