package import PasskeyApplication

/// What verifying a captured ceremony produced.
package enum CapturedOutcome: Sendable, Hashable {
    case registration(VerifiedRegistration)
    case authentication(VerifiedAuthentication)

    /// `format=… type=… alg=… up=… uv=… be=… bs=… signCount=…` (the `verify-response` line).
    package var summary: String {
        switch self {
        case .registration(let r):
            "format=\(r.attestationFormat) type=\(r.attestationType.rawValue) alg=\(r.algorithm.name) "
                + flags(r.userPresent, r.userVerified, r.backupEligible, r.backupState) + " signCount=\(r.signCount)"
        case .authentication(let a):
            "format=- type=- alg=\(a.algorithm.name) "
                + flags(a.userPresent, a.userVerified, a.backupEligible, a.backupState) + " signCount=\(a.signCount)"
        }
    }

    private func flags(_ up: Bool, _ uv: Bool, _ be: Bool, _ bs: Bool) -> String {
        "up=\(up) uv=\(uv) be=\(be) bs=\(bs)"
    }
}
