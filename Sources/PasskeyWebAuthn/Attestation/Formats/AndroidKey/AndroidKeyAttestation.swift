internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// `android-key` (WebAuthn L3 §8.4): a Keystore key whose certificate chain (x5c) carries the
/// Android key attestation extension.
///
/// Origin and purpose are checked in the union of `softwareEnforced` and `teeEnforced`, as
/// §8.4.2 allows for an RP that does not insist on a TEE. Hardware assurance is the chain's
/// business: the shipped trust anchors contain only Google's hardware attestation roots, so the
/// `trusted` policy refuses software-keystore attestations (see docs/webauthn.md).
enum AndroidKeyAttestation {
    static func verify(_ input: AttestationInput) throws(CredentialVerificationFailure) -> AttestationResult {
        let statement = input.statement
        // Step 1: attStmt syntax.
        guard let algValue = statement[text: "alg"]?.integer, let algorithm = COSEAlgorithm(rawValue: algValue),
            case .bytes(let signature)? = statement[text: "sig"],
            let certificates = try X5CChain.parse(statement), let leaf = certificates.first,
            let leafKey = try? leaf.publicKey()
        else { throw .invalidAttestation }
        try AttestationKeyBounds.require(leafKey)
        // Step 2: sig over authenticatorData ‖ clientDataHash with the leaf key and alg.
        guard leafKey.verify(signature: signature, message: input.signedBytes, scheme: COSEKey.scheme(for: algorithm))
        else { throw .invalidAttestation }
        // Step 3: the leaf's public key is the credential public key.
        guard leafKey.isSameKey(as: input.credentialKey.publicKey) else { throw .invalidAttestation }
        // Step 4: the key description's attestationChallenge is clientDataHash.
        guard let value = leaf.extensionValue(oid: AndroidKeyDescription.extensionOID),
            let description = AndroidKeyDescription(extensionValue: value),
            ConstantTime.equals(description.attestationChallenge, input.clientDataHash)
        else { throw .invalidAttestation }
        // Step 5: authorization lists.
        guard listsAreAcceptable(software: description.softwareEnforced, tee: description.teeEnforced) else {
            throw .invalidAttestation
        }
        return AttestationResult(type: .basic, trustPath: certificates)
    }

    /// §8.4.2 step 5: allApplications in neither list (the key must be scoped to the RP ID); in
    /// the union of both lists, origin is KM_ORIGIN_GENERATED (every origin present, at least
    /// one) and purpose includes KM_PURPOSE_SIGN.
    static func listsAreAcceptable(software: AndroidAuthorizationList, tee: AndroidAuthorizationList) -> Bool {
        guard !software.allApplications, !tee.allApplications else { return false }
        let origins = [software.origin, tee.origin].compactMap { $0 }
        guard !origins.isEmpty, origins.allSatisfy({ $0 == AndroidAuthorizationList.originGenerated }) else {
            return false
        }
        return (software.purposes + tee.purposes).contains(AndroidAuthorizationList.purposeSign)
    }
}
