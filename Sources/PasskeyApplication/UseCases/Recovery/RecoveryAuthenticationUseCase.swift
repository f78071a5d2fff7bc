package import PasskeyDomain

/// Why a recovery sign-in failed. Unknown email, wrong, used and expired codes are one case.
package enum RecoveryAuthenticationError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    case invalidCredentials
    case rateLimited(retryAfter: Int)
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// `POST /v1/recovery/sessions`: a recovery code opens a short `recovery` session, which counts
/// as a recent sign-in (so the user can add a new passkey at once).
///
/// Failures count against the password limits (per email and per address), counted before the
/// code is checked like a password attempt. Every outcome does the same work (a digest and one
/// consuming statement that matches nothing), so unknown email, wrong, used and expired codes
/// take comparable time.
package struct RecoveryAuthenticationUseCase: Sendable {
    let recoveryCodes: any RecoveryCodeRepository
    let attempts: AttemptCounter
    let digester: any SecretDigester
    let issuer: SessionIssuer
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(
        recoveryCodes: any RecoveryCodeRepository, rateLimits: any RateLimitRepository, digester: any SecretDigester,
        issuer: SessionIssuer, policy: PasskeyPolicy, clock: any WallClock, gate: AttemptGate
    ) {
        self.recoveryCodes = recoveryCodes
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.digester = digester
        self.issuer = issuer
        self.policy = policy
        self.clock = clock
    }

    /// The session, and which kind of code opened it (for the warning the caller logs).
    package func execute(email rawEmail: String, code rawCode: String, clientAddress: String)
        async throws(RecoveryAuthenticationError) -> (session: IssuedSession, source: RecoveryCodeSource)
    {
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard let code = RecoveryCode(presented: rawCode) else { throw .invalidRequest(field: "code") }
        let attempt = try await attempts.begin(email: email, clientAddress: clientAddress, as: Failure.self)
        let now = clock.now
        let prepared = issuer.prepare(method: .recovery, now: now, lifetime: policy.recoverySessionLifetime)
        let digest = digester.sha256(Array(code.canonical.utf8))
        let redeemed = try await Failure.catching { () async throws(RepositoryError) in
            try await recoveryCodes.redeem(
                normalizedEmail: email.normalized, codeDigest: digest, now: now, makeSession: prepared.stored(for:))
        }
        guard let redeemed else { throw .invalidCredentials }  // the attempt stays counted
        try await attempts.forgive(attempt, as: Failure.self)
        return (prepared.issued(for: redeemed.account), redeemed.source)
    }

    private typealias Failure = RecoveryAuthenticationError
}
