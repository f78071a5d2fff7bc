package import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

extension WebAuthnCredentialVerifier {
    /// Authentication ceremony, WebAuthn L3 §7.2 (the step numbers below are that section's).
    package func verifyAuthentication(_ response: AuthenticationResponse, expectation: AuthenticationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedAuthentication
    {
        // Step 6: the user handle identifies the account; it must be the credential owner's.
        if let handle = response.userHandle, !handle.isEmpty {
            if let expected = expectation.expectedUserHandle, !ConstantTime.equals(handle, expected.bytes) {
                throw .userHandleMismatch
            }
        } else if expectation.requireUserHandle {
            throw .userHandleMissing
        }
        // Steps 9–14.
        let clientData = try verifyClientData(
            response.clientDataJSON, type: "webauthn.get", challenge: expectation.challenge)
        let authenticatorData: AuthenticatorData
        do {
            authenticatorData = try AuthenticatorData(bytes: response.authenticatorData, decoder: decoder)
        } catch {
            throw .malformedAuthenticatorData
        }
        // Steps 15–18: rpIdHash, UP (always required here), UV, BS ⇒ BE.
        try verifyFlags(
            authenticatorData, requireUserPresence: true,
            requireUserVerification: expectation.requireUserVerification)
        let flags = authenticatorData.flags
        // Step 19: BE is fixed at creation; a change means a different or tampered credential.
        if let stored = expectation.storedBackupEligible, stored != flags.backupEligible {
            throw .backupEligibilityChanged
        }
        // Steps 21–22: signature over authenticatorData ‖ SHA-256(clientDataJSON) with the stored key.
        let credentialKey: COSEKey
        do {
            credentialKey = try keyCache.key(for: expectation.publicKey)
        } catch {
            switch error {
            case .unsupportedAlgorithm: throw .unsupportedAlgorithm
            case .malformed: throw .signatureInvalid
            }
        }
        let signed = authenticatorData.rawBytes + Digest.sha256(clientData.rawBytes)
        guard credentialKey.verify(signature: response.signature, message: signed) else { throw .signatureInvalid }
        // Step 23: signature counter.
        let cloneWarning = try checkSignCount(
            new: authenticatorData.signCount, stored: expectation.storedSignCount,
            backupEligible: flags.backupEligible)
        return VerifiedAuthentication(
            algorithm: credentialKey.algorithm, signCount: authenticatorData.signCount,
            userPresent: flags.userPresent, userVerified: flags.userVerified, backupEligible: flags.backupEligible,
            backupState: flags.backupState, cloneWarning: cloneWarning)
    }

    /// §7.2 step 23 with this server's policy: when either counter is non-zero the new one must
    /// be greater; otherwise a device-bound credential is refused as a possible clone and a
    /// synced one (BE = 1) is accepted with a clone warning. Returns whether to warn.
    func checkSignCount(new: UInt32, stored: UInt32, backupEligible: Bool) throws(CredentialVerificationFailure)
        -> Bool
    {
        if new == 0 && stored == 0 { return false }
        if new > stored { return false }
        guard backupEligible else { throw .signCountRegressed }
        return true
    }
}
