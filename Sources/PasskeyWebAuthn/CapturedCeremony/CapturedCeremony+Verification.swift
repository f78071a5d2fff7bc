package import Foundation
package import PasskeyApplication
internal import PasskeyDomain

extension CapturedCeremony {
    /// Verifies the captured response offline, as the RP described in the file would:
    /// its RP ID and single origin, its offered algorithms, its trust anchors (for all formats)
    /// or `anchors` instead when given (e.g. `TrustAnchors.load(directory:)`) under `policy`,
    /// certificates and SafetyNet freshness evaluated at `verifyAt` (or `now`). Authentication
    /// runs without a user-handle requirement and without a stored BE (offline verification).
    package func verify(policy: AttestationPolicy = .any, anchors: TrustAnchors? = nil, now: Date = Date())
        throws(CapturedCeremonyError) -> Result<CapturedOutcome, CredentialVerificationFailure>
    {
        let verifier = try makeVerifier(policy: policy, anchors: anchors)
        let challengeBytes = try Self.bytes(challenge, field: "challenge")
        let credentialID = try Self.bytes(response.credentialId, field: "response.credentialId")
        let clientDataJSON = try Self.bytes(response.clientDataJSON, field: "response.clientDataJSON")
        switch ceremony {
        case .registration:
            guard let attestation = response.attestationObject else {
                throw .missingField("response.attestationObject")
            }
            let request = RegistrationResponse(
                credentialID: credentialID, clientDataJSON: clientDataJSON,
                attestationObject: try Self.bytes(attestation, field: "response.attestationObject"))
            let expectation = RegistrationExpectation(
                challenge: Challenge(bytes: challengeBytes), requireUserPresence: requireUserPresence ?? true,
                requireUserVerification: requireUserVerification, verificationTime: try verificationTime(now: now))
            do {
                return .success(.registration(try verifier.verifyRegistration(request, expectation: expectation)))
            } catch {
                return .failure(error)
            }
        case .authentication:
            guard let authenticatorData = response.authenticatorData else {
                throw .missingField("response.authenticatorData")
            }
            guard let signature = response.signature else { throw .missingField("response.signature") }
            guard let storedKey = credentialPublicKey else { throw .missingField("credentialPublicKey") }
            guard let typedCredentialID = CredentialID(bytes: credentialID) else { throw .invalidCredentialID }
            let request = AuthenticationResponse(
                credentialID: typedCredentialID, clientDataJSON: clientDataJSON,
                authenticatorData: try Self.bytes(authenticatorData, field: "response.authenticatorData"),
                signature: try Self.bytes(signature, field: "response.signature"),
                userHandle: try response.userHandle.map { (handle) throws(CapturedCeremonyError) in
                    try Self.bytes(handle, field: "response.userHandle")
                })
            let expectation = AuthenticationExpectation(
                challenge: Challenge(bytes: challengeBytes), requireUserVerification: requireUserVerification,
                publicKey: try Self.bytes(storedKey, field: "credentialPublicKey"),
                storedSignCount: storedSignCount ?? 0, storedBackupEligible: nil, expectedUserHandle: nil,
                requireUserHandle: false)
            do {
                return .success(.authentication(try verifier.verifyAuthentication(request, expectation: expectation)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The verifier configuration this file describes.
    package func configuration(policy: AttestationPolicy) throws(CapturedCeremonyError) -> WebAuthnVerifierConfiguration
    {
        var algorithms = COSEAlgorithm.allCases
        if let offered = allowedAlgorithms {
            algorithms = []
            for value in offered {
                guard let algorithm = COSEAlgorithm(rawValue: value) else { throw .unknownAlgorithm(value) }
                algorithms.append(algorithm)
            }
        }
        var anchors: [[UInt8]] = []
        for pem in trustAnchorsPEM ?? [] {
            guard let blocks = PEM.certificates(in: pem), !blocks.isEmpty else { throw .invalidTrustAnchor }
            anchors += blocks
        }
        return WebAuthnVerifierConfiguration(
            relyingPartyID: rpId, allowedOrigins: [origin], allowedAlgorithms: algorithms,
            attestationPolicy: policy, trustAnchors: TrustAnchors(allFormats: anchors))
    }

    private func makeVerifier(policy: AttestationPolicy, anchors: TrustAnchors?) throws(CapturedCeremonyError)
        -> WebAuthnCredentialVerifier
    {
        var configuration = try configuration(policy: policy)
        if let anchors { configuration.trustAnchors = anchors }
        do {
            return try WebAuthnCredentialVerifier(configuration: configuration)
        } catch {
            throw .invalidTrustAnchor
        }
    }

    /// `verifyAt` parsed (with or without fractional seconds), else `now`.
    func verificationTime(now: Date) throws(CapturedCeremonyError) -> Date {
        guard let verifyAt else { return now }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: verifyAt) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: verifyAt) else { throw .invalidVerifyAt }
        return date
    }

    private static func bytes(_ text: String, field: String) throws(CapturedCeremonyError) -> [UInt8] {
        guard let bytes = Base64URL.decode(text) else { throw .invalidBase64URL(field) }
        return bytes
    }
}
