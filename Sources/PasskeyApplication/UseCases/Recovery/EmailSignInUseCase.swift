internal import Foundation
internal import PasskeyDomain

/// `POST /v1/recovery/email/sessions`: a mailed `sign-in` code opens a short `email` session,
/// which counts as a recent sign-in and verifies the address. On an address that was never
/// verified it also takes the account back (the repository deletes the password, passkeys and
/// recovery codes and ends every other session in the same transaction).
///
/// Failures count against the password limits (per email and per address), counted before the
/// code is checked. Unknown email, wrong, used and expired codes are one answer, and each does
/// a digest and one locking statement.
package struct EmailSignInUseCase: Sendable {
    let codes: any EmailCodeRepository
    let attempts: AttemptCounter
    let maker: EmailCodeMaker
    let issuer: SessionIssuer
    let notifier: SecurityNotifier
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(
        codes: any EmailCodeRepository, rateLimits: any RateLimitRepository, maker: EmailCodeMaker,
        issuer: SessionIssuer, notifier: SecurityNotifier = .off, policy: PasskeyPolicy, clock: any WallClock,
        gate: AttemptGate
    ) {
        self.codes = codes
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.maker = maker
        self.issuer = issuer
        self.notifier = notifier
        self.policy = policy
        self.clock = clock
    }

    /// The session, and whether the account was taken back (for the warning the caller logs).
    package func execute(email rawEmail: String, code: String, origin: RequestOrigin, clientAddress: String)
        async throws(EmailSignInError) -> (session: IssuedSession, reclaimed: Bool)
    {
        guard policy.mail.enabled else { throw .mailUnavailable }
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        let attempt = try await attempts.begin(email: email, clientAddress: clientAddress, as: EmailSignInError.self)
        let now = clock.now
        let prepared = issuer.prepare(method: .email, now: now, lifetime: policy.recoverySessionLifetime)
        let notice = notifier.notice(.recoverySignIn(.email), at: now, from: origin)
        let events = AccountEventMaker(random: maker.random)
        let signInEvents = SignInEvents(
            success: events.pending(.signIn(.email, credentialID: nil), sessionID: prepared.id, at: now, from: origin),
            failure: events.pending(.signInFailed(.email), sessionID: nil, at: now, from: origin))
        let reclaimed = events.pending(.accountReclaimed, sessionID: prepared.id, at: now, from: origin)
        let redemption = try await EmailSignInError.catching { () async throws(RepositoryError) in
            try await codes.signIn(
                normalizedEmail: email.normalized, now: now, maximumTries: policy.mail.maximumCodeTries,
                matches: maker.matcher(presented: code), makeSession: prepared.stored(for:), notice: notice,
                events: signInEvents, reclaimed: reclaimed)
        }
        switch redemption {
        case .invalid:
            throw .invalidCredentials  // the attempt stays counted
        case .signedIn(let account, let reclaimed):
            try await attempts.forgive(attempt, as: EmailSignInError.self)
            return (prepared.issued(for: account), reclaimed)
        }
    }

    /// Mail off: 503 `mail-unavailable`, answered before the body is read.
    package func checkEnabled() throws(EmailSignInError) {
        guard policy.mail.enabled else { throw .mailUnavailable }
    }
}
