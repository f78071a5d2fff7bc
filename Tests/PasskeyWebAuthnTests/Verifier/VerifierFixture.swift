import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import PasskeyWebAuthn

/// Shared setup for rule tests: one RP, one origin, and builders from the software authenticator.
struct VerifierFixture {
    static let relyingPartyID = "example.com"
    static let origin = "https://example.com"

    let challenge = Challenge(bytes: (0..<32).map { UInt8($0) })

    func verifier(
        algorithms: [COSEAlgorithm] = COSEAlgorithm.allCases, policy: AttestationPolicy = .any,
        anchors: TrustAnchors = TrustAnchors()
    ) throws -> WebAuthnCredentialVerifier {
        try WebAuthnCredentialVerifier(
            configuration: WebAuthnVerifierConfiguration(
                relyingPartyID: Self.relyingPartyID, allowedOrigins: [Self.origin], allowedAlgorithms: algorithms,
                attestationPolicy: policy, trustAnchors: anchors))
    }

    func registration(_ algorithm: COSEAlgorithm = .es256) throws -> SoftwareAuthenticatorRegistration {
        SoftwareAuthenticatorRegistration(
            key: try SoftwareAuthenticatorKey.generate(algorithm), relyingPartyID: Self.relyingPartyID,
            origin: Self.origin, challenge: challenge.bytes)
    }

    func registrationExpectation(requireUserPresence: Bool = true, requireUserVerification: Bool = true)
        -> RegistrationExpectation
    {
        RegistrationExpectation(
            challenge: challenge, requireUserPresence: requireUserPresence,
            requireUserVerification: requireUserVerification, verificationTime: Date())
    }

    /// Verifies the built registration; returns the failure reason, or nil on success.
    func registrationFailure(
        _ builder: SoftwareAuthenticatorRegistration, expectation: RegistrationExpectation? = nil,
        verifier: WebAuthnCredentialVerifier? = nil
    ) throws -> CredentialVerificationFailure? {
        let response = try builder.makeResponse()
        do {
            _ = try (verifier ?? self.verifier()).verifyRegistration(
                response, expectation: expectation ?? registrationExpectation())
            return nil
        } catch let failure as CredentialVerificationFailure {
            return failure
        }
    }

    func assertion(_ algorithm: COSEAlgorithm = .es256) throws -> SoftwareAuthenticatorAssertion {
        SoftwareAuthenticatorAssertion(
            key: try SoftwareAuthenticatorKey.generate(algorithm), relyingPartyID: Self.relyingPartyID,
            origin: Self.origin, challenge: challenge.bytes)
    }

    func authenticationExpectation(
        for builder: SoftwareAuthenticatorAssertion, storedSignCount: UInt32 = 0, storedBackupEligible: Bool? = false,
        requireUserVerification: Bool = true
    ) throws -> AuthenticationExpectation {
        AuthenticationExpectation(
            challenge: challenge, requireUserVerification: requireUserVerification,
            publicKey: try builder.key.coseKey().encoded, storedSignCount: storedSignCount,
            storedBackupEligible: storedBackupEligible,
            expectedUserHandle: builder.userHandle.flatMap(UserHandle.init(bytes:)),
            requireUserHandle: true)
    }

    func authenticate(_ builder: SoftwareAuthenticatorAssertion, expectation: AuthenticationExpectation? = nil)
        throws -> Result<VerifiedAuthentication, CredentialVerificationFailure>
    {
        let response = try builder.makeResponse()
        let expectation = try expectation ?? authenticationExpectation(for: builder)
        do {
            return .success(try verifier().verifyAuthentication(response, expectation: expectation))
        } catch let failure as CredentialVerificationFailure {
            return .failure(failure)
        }
    }
}
