package import Foundation
package import PasskeyDomain

/// Whether user verification is demanded (`USER_VERIFICATION`).
package enum UserVerificationPolicy: String, Hashable, Sendable {
    case required
    /// UV = 0 is accepted and recorded.
    case preferred
}

/// The relying party's rules, from configuration; use cases read them, nothing else.
package struct PasskeyPolicy: Sendable {
    package var relyingPartyID: String
    package var relyingPartyName: String
    package var challengeLifetime: TimeInterval
    package var sessionLifetime: TimeInterval
    /// How recent a password sign-in must be to start a conditional (automatic) upgrade.
    package var conditionalUpgradeWindow: TimeInterval
    package var userVerification: UserVerificationPolicy
    /// Offered and accepted COSE algorithms, in order of preference.
    package var algorithms: [COSEAlgorithm]
    /// Option issuance (the three start endpoints together) per client address and minute; 0 = off.
    package var startsPerMinute: Int
    package var passwordFailuresPerEmail: Int
    package var passwordFailuresPerAddress: Int
    package var passwordFailureWindow: TimeInterval
    /// How recent a sign-in must be for sensitive changes (`REAUTHENTICATION_WINDOW_SECONDS`).
    package var reauthenticationWindow: TimeInterval
    /// Password sign-ups per client address per `passwordFailureWindow`; 0 = off.
    package var signupsPerAddress: Int
    /// Lifetime of a session opened with a recovery code (`RECOVERY_SESSION_LIFETIME_SECONDS`).
    package var recoverySessionLifetime: TimeInterval
    /// How long an operator-issued recovery code is valid.
    package var operatorRecoveryCodeLifetime: TimeInterval = 86_400
    /// Passkeys one account may hold (`MAX_PASSKEYS_PER_ACCOUNT`): adding one beyond is refused.
    package var maxPasskeysPerAccount: Int = 50
    /// What the creation options ask for: `direct` under `PASSKEY_ATTESTATION_POLICY=trusted`.
    package var attestationConveyance: AttestationConveyance = .none
    /// (v3) Verified email and mail.
    package var mail: MailPolicy = .off

    package init(
        relyingPartyID: String = "localhost", relyingPartyName: String = "Passkey Server",
        challengeLifetime: TimeInterval = 300, sessionLifetime: TimeInterval = 2_592_000,
        conditionalUpgradeWindow: TimeInterval = 300, userVerification: UserVerificationPolicy = .required,
        algorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256], startsPerMinute: Int = 300,
        passwordFailuresPerEmail: Int = 10, passwordFailuresPerAddress: Int = 50,
        passwordFailureWindow: TimeInterval = 900, reauthenticationWindow: TimeInterval = 600,
        signupsPerAddress: Int = 20, recoverySessionLifetime: TimeInterval = 900
    ) {
        self.recoverySessionLifetime = recoverySessionLifetime
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.challengeLifetime = challengeLifetime
        self.sessionLifetime = sessionLifetime
        self.conditionalUpgradeWindow = conditionalUpgradeWindow
        self.userVerification = userVerification
        self.algorithms = algorithms
        self.startsPerMinute = startsPerMinute
        self.passwordFailuresPerEmail = passwordFailuresPerEmail
        self.passwordFailuresPerAddress = passwordFailuresPerAddress
        self.passwordFailureWindow = passwordFailureWindow
        self.reauthenticationWindow = reauthenticationWindow
        self.signupsPerAddress = signupsPerAddress
    }

    /// The per-email and per-address budget of password (and recovery-code) attempts.
    package var attemptLimits: AttemptLimits {
        AttemptLimits(
            perEmail: passwordFailuresPerEmail, perAddress: passwordFailuresPerAddress, window: passwordFailureWindow)
    }

    /// UV demanded for a ceremony that is not conditional.
    package var requiresUserVerification: Bool { userVerification == .required }
}
