internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

extension WebAuthnCredentialVerifier {
    /// Client data checks shared by both ceremonies (§7.1 steps 5–10, §7.2 steps 9–14).
    func verifyClientData(_ bytes: [UInt8], type expectedType: String, challenge: Challenge)
        throws(CredentialVerificationFailure) -> CollectedClientData
    {
        guard let clientData = CollectedClientData(bytes: bytes) else { throw .malformedClientData }
        // §7.1 step 7 / §7.2 step 11: type.
        guard clientData.type == expectedType else { throw .typeMismatch }
        // §7.1 step 8 / §7.2 step 12: challenge, compared as decoded bytes.
        guard let received = clientData.challengeBytes, ConstantTime.equals(received, challenge.bytes) else {
            throw .challengeMismatch
        }
        // §7.1 step 9 / §7.2 step 13: origin is one the RP expects.
        guard configuration.allowedOrigins.contains(clientData.origin) else { throw .originMismatch }
        // §7.1 step 10 / §7.2 step 14: this RP is never embedded in a cross-origin iframe.
        guard clientData.crossOrigin != true else { throw .crossOriginNotAllowed }
        guard clientData.topOrigin == nil else { throw .topOriginNotAllowed }
        return clientData
    }

    /// rpIdHash, UP, UV and the backup flags (§7.1 steps 13–16, §7.2 steps 15–18).
    func verifyFlags(_ authenticatorData: AuthenticatorData, requireUserPresence: Bool, requireUserVerification: Bool)
        throws(CredentialVerificationFailure)
    {
        guard ConstantTime.equals(authenticatorData.relyingPartyIDHash, relyingPartyIDHash) else {
            throw .rpIdHashMismatch
        }
        let flags = authenticatorData.flags
        guard flags.userPresent || !requireUserPresence else { throw .userPresentFlagNotSet }
        guard flags.userVerified || !requireUserVerification else { throw .userVerifiedFlagNotSet }
        guard flags.backupEligible || !flags.backupState else { throw .backupStateWithoutEligibility }
    }
}
