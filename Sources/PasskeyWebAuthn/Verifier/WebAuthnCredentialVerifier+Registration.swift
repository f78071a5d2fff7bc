internal import Foundation
package import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

extension WebAuthnCredentialVerifier {
    /// Registration ceremony, WebAuthn L3 §7.1 (the step numbers below are that section's).
    package func verifyRegistration(_ response: RegistrationResponse, expectation: RegistrationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedRegistration
    {
        // Steps 5–10.
        let clientData = try verifyClientData(
            response.clientDataJSON, type: "webauthn.create", challenge: expectation.challenge)
        // Step 11.
        let clientDataHash = Digest.sha256(clientData.rawBytes)
        // Step 12: decode the attestation object and its authenticator data.
        guard let attestationObject = AttestationObject(bytes: response.attestationObject, decoder: decoder) else {
            throw .malformedAttestationObject
        }
        let authenticatorData: AuthenticatorData
        do {
            authenticatorData = try AuthenticatorData(bytes: attestationObject.authenticatorDataBytes, decoder: decoder)
        } catch {
            throw .malformedAuthenticatorData
        }
        // Steps 13–16.
        try verifyFlags(
            authenticatorData, requireUserPresence: expectation.requireUserPresence,
            requireUserVerification: expectation.requireUserVerification)
        guard let credential = authenticatorData.attestedCredentialData else { throw .attestedCredentialDataMissing }
        // Step 19: the credential key and its algorithm, one the RP offered.
        let credentialKey: COSEKey
        do {
            credentialKey = try COSEKey(credential.publicKey)
        } catch {
            switch error {
            case .malformed: throw .malformedAuthenticatorData
            case .unsupportedAlgorithm: throw .unsupportedAlgorithm
            }
        }
        guard configuration.allowedAlgorithms.contains(credentialKey.algorithm) else { throw .unsupportedAlgorithm }
        // Steps 22–23: the attestation statement format and its verification procedure.
        let input = AttestationInput(
            statement: attestationObject.statement, authenticatorData: authenticatorData,
            clientDataHash: clientDataHash, credential: credential, credentialKey: credentialKey,
            verificationTime: expectation.verificationTime)
        let attestation = try verifyAttestation(format: attestationObject.format, input: input)
        // Steps 24–25: trustworthiness, per the configured policy.
        try verifyTrust(attestation, format: attestationObject.format, at: expectation.verificationTime)
        // Step 25: credential ID length; and it must be the one the client reported.
        guard credential.credentialID.count <= CredentialID.maximumLength else { throw .credentialIdTooLong }
        guard let credentialID = CredentialID(bytes: credential.credentialID) else {
            throw .malformedAuthenticatorData
        }
        guard response.credentialID == credential.credentialID else { throw .credentialIdMismatch }
        let flags = authenticatorData.flags
        return VerifiedRegistration(
            credentialID: credentialID, publicKey: credential.publicKeyBytes, algorithm: credentialKey.algorithm,
            signCount: authenticatorData.signCount, aaguid: credential.aaguid, userPresent: flags.userPresent,
            userVerified: flags.userVerified, backupEligible: flags.backupEligible, backupState: flags.backupState,
            attestationFormat: attestationObject.format, attestationType: attestation.type)
    }

    /// Step 22–23: dispatch on `fmt` (USASCII case-sensitive match against the IANA registry).
    func verifyAttestation(format: String, input: AttestationInput) throws(CredentialVerificationFailure)
        -> AttestationResult
    {
        guard let known = AttestationStatementFormat(rawValue: format) else { throw .unsupportedAttestationFormat }
        switch known {
        case .none: return try NoneAttestation.verify(input)
        case .packed: return try PackedAttestation.verify(input)
        case .fidoU2F: return try FIDOU2FAttestation.verify(input)
        case .apple: return try AppleAttestation.verify(input)
        case .tpm: return try TPMAttestation.verify(input)
        case .androidKey: return try AndroidKeyAttestation.verify(input)
        case .androidSafetyNet: return try AndroidSafetyNetAttestation.verify(input)
        }
    }

    /// Steps 24–25: with the `trusted` policy the x5c chain must verify to a configured anchor
    /// at `time`; `none` and self attestation cannot be trusted. With `any`, nothing more is checked.
    func verifyTrust(_ attestation: AttestationResult, format: String, at time: Date)
        throws(CredentialVerificationFailure)
    {
        guard configuration.attestationPolicy == .trusted else { return }
        guard let leaf = attestation.trustPath.first,
            CertificateChain.verify(
                leaf: leaf, intermediates: Array(attestation.trustPath.dropFirst()), anchors: anchors(for: format),
                at: time)
        else { throw .untrustedAttestation }
    }
}
