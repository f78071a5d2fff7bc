package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// A `CredentialVerifier` whose verdicts a test sets: every registration answers the configured
/// `VerifiedRegistration` or throws the configured failure (by default it accepts, with the
/// response's credential ID); likewise for authentication. It records the expectation of
/// every call, so a test can check what a use case demanded (challenge, UP, UV).
package final class ScriptedCredentialVerifier: CredentialVerifier {
    private struct State {
        /// Nil: accept, with `verifiedRegistration(credentialID:)` for the response's credential ID.
        var registration: Result<VerifiedRegistration, CredentialVerificationFailure>?
        var registrationExpectations: [RegistrationExpectation] = []
        // Sign-in (see the extension below).
        var authentication: Result<VerifiedAuthentication, CredentialVerificationFailure> = .success(
            ScriptedCredentialVerifier.verifiedAuthentication())
        var authenticationExpectations: [AuthenticationExpectation] = []
    }

    private let state = Mutex(State())

    package init() {}

    /// Every registration from now on answers `verified`.
    package func acceptRegistrations(as verified: VerifiedRegistration) {
        state.withLock { $0.registration = .success(verified) }
    }

    /// Every registration from now on is refused with `failure`.
    package func refuseRegistrations(_ failure: CredentialVerificationFailure) {
        state.withLock { $0.registration = .failure(failure) }
    }

    /// The expectation of every `verifyRegistration` call, in order.
    package var registrationExpectations: [RegistrationExpectation] {
        state.withLock { $0.registrationExpectations }
    }

    package func verifyRegistration(_ response: RegistrationResponse, expectation: RegistrationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedRegistration
    {
        let scripted = state.withLock { (state) -> Result<VerifiedRegistration, CredentialVerificationFailure>? in
            state.registrationExpectations.append(expectation)
            return state.registration
        }
        if let scripted { return try scripted.get() }
        guard let id = CredentialID(bytes: response.credentialID) else { throw .attestedCredentialDataMissing }
        return Self.verifiedRegistration(credentialID: id)
    }

    /// A verified registration with plausible values; change any of them.
    package static func verifiedRegistration(
        credentialID: CredentialID = DomainFixtures.credentialID(),
        aaguid: AAGUID = AAGUID(string: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")!, userPresent: Bool = true,
        userVerified: Bool = true, backupEligible: Bool = true, backupState: Bool = true
    ) -> VerifiedRegistration {
        VerifiedRegistration(
            credentialID: credentialID, publicKey: [0xA5, 0x01, 0x02, 0x03, 0x26], algorithm: .es256, signCount: 0,
            aaguid: aaguid, userPresent: userPresent, userVerified: userVerified, backupEligible: backupEligible,
            backupState: backupState, attestationFormat: "none", attestationType: .none)
    }
}

// MARK: - Sign-in
// The sign-in finish is being redesigned; this half is the current protocol implemented plainly.

extension ScriptedCredentialVerifier {
    /// Every assertion from now on answers `verified`.
    package func acceptAuthentications(as verified: VerifiedAuthentication) {
        state.withLock { $0.authentication = .success(verified) }
    }

    /// Every assertion from now on is refused with `failure`.
    package func refuseAuthentications(_ failure: CredentialVerificationFailure) {
        state.withLock { $0.authentication = .failure(failure) }
    }

    /// The expectation of every `verifyAuthentication` call, in order.
    package var authenticationExpectations: [AuthenticationExpectation] {
        state.withLock { $0.authenticationExpectations }
    }

    package func verifyAuthentication(_ response: AuthenticationResponse, expectation: AuthenticationExpectation)
        throws(CredentialVerificationFailure) -> VerifiedAuthentication
    {
        try state.withLock { (state) -> Result<VerifiedAuthentication, CredentialVerificationFailure> in
            state.authenticationExpectations.append(expectation)
            return state.authentication
        }
        .get()
    }

    /// A verified assertion with plausible values; change any of them.
    package static func verifiedAuthentication(
        signCount: UInt32 = 1, userVerified: Bool = true, backupEligible: Bool = true, backupState: Bool = true,
        cloneWarning: Bool = false
    ) -> VerifiedAuthentication {
        VerifiedAuthentication(
            algorithm: .es256, signCount: signCount, userPresent: true, userVerified: userVerified,
            backupEligible: backupEligible, backupState: backupState, cloneWarning: cloneWarning)
    }
}
