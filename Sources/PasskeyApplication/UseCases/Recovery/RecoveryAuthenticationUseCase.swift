package import Foundation
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
///
/// A double submit is not a guess: a use that loses the race to the use that consumed the same
/// code (the database says so, for a use at most `recentUseWindow` ago) answers
/// `invalidCredentials` like any used code, and its attempt is forgiven. Uses of one code for one
/// email wait for each other in this process (the `AttemptGate`, keyed by email and digest), so
/// a burst of them is not refused by its own attempts still in flight.
///
/// A redemption queues the `recoverySignIn` notice (own code or operator code) in its transaction.
package struct RecoveryAuthenticationUseCase: Sendable {
    /// How long after a code was consumed a use of it is taken for a double submit that lost the
    /// race (and not counted). Short: only a code that really existed and was consumed just now
    /// gets this, so it offers no free guesses; it need only cover a burst of submits in line.
    package static let recentUseWindow: TimeInterval = 10

    let recoveryCodes: any RecoveryCodeRepository
    let attempts: AttemptCounter
    let gate: AttemptGate
    let digester: any SecretDigester
    let issuer: SessionIssuer
    let policy: PasskeyPolicy
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        recoveryCodes: any RecoveryCodeRepository, rateLimits: any RateLimitRepository, digester: any SecretDigester,
        issuer: SessionIssuer, policy: PasskeyPolicy, notifier: SecurityNotifier = .off, clock: any WallClock,
        gate: AttemptGate, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.recoveryCodes = recoveryCodes
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.gate = gate
        self.digester = digester
        self.issuer = issuer
        self.policy = policy
        self.notifier = notifier
        self.clock = clock
    }

    /// The session, and which kind of code opened it (for the warning the caller logs).
    /// `clientAddress` is what the per-address limit counts; `origin` is what the notice names.
    package func execute(email rawEmail: String, code rawCode: String, clientAddress: String, origin: RequestOrigin)
        async throws(RecoveryAuthenticationError) -> (session: IssuedSession, source: RecoveryCodeSource)
    {
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard let code = RecoveryCode(presented: rawCode) else { throw .invalidRequest(field: "code") }
        let digest = digester.sha256(Array(code.canonical.utf8))
        let key =
            "recovery-code:" + email.normalized + ":" + digest.map { String($0, radix: 16) }.joined(separator: ".")
        let outcome = try await Failure.catching {
            () async throws(RepositoryError) -> Result<(session: IssuedSession, source: RecoveryCodeSource), Failure>?
            in
            try await gate.withKeys([key]) { () async throws(RepositoryError) in
                do throws(Failure) {
                    return .success(
                        try await attempt(email: email, digest: digest, clientAddress: clientAddress, origin: origin))
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let outcome else { throw .rateLimited(retryAfter: 1) }  // too many uses of this code waiting
        return try outcome.get()
    }

    private func attempt(email: EmailAddress, digest: [UInt8], clientAddress: String, origin: RequestOrigin)
        async throws(Failure) -> (session: IssuedSession, source: RecoveryCodeSource)
    {
        let attempt = try await attempts.begin(email: email, clientAddress: clientAddress, as: Failure.self)
        let now = clock.now
        let prepared = issuer.prepare(method: .recovery, now: now, lifetime: policy.recoverySessionLifetime)
        let notifier = notifier
        let events = SignInEvents(
            success: self.events.pending(
                .signIn(.recovery, credentialID: nil), sessionID: prepared.id, at: now, from: origin),
            failure: self.events.pending(.signInFailed(.recovery), sessionID: nil, at: now, from: origin))
        let redemption = try await Failure.catching { () async throws(RepositoryError) in
            try await recoveryCodes.redeem(
                normalizedEmail: email.normalized, codeDigest: digest, now: now, recentUseWindow: Self.recentUseWindow,
                notice: { source in
                    let method: SecurityNotice.RecoveryMethod = source == .operator ? .operatorCode : .recoveryCode
                    return notifier.notice(.recoverySignIn(method), at: now, from: origin)
                }, makeSession: prepared.stored(for:), events: events)
        }
        switch redemption {
        case .notFound:
            throw .invalidCredentials  // the attempt stays counted
        case .usedJustNow:
            try await attempts.forgive(attempt, as: Failure.self)  // a double submit, not a guess
            throw .invalidCredentials
        case .redeemed(let account, let source):
            try await attempts.forgive(attempt, as: Failure.self)
            return (prepared.issued(for: account), source)
        }
    }

    private typealias Failure = RecoveryAuthenticationError
}
