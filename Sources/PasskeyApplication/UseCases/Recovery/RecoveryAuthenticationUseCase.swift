package import Foundation
package import PasskeyDomain

/// Why a recovery sign-in failed. Unknown email, wrong, used and expired codes are one case.
package enum RecoveryAuthenticationError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    case invalidCredentials
    /// (v4) The right code of an account the support desk locked: not consumed, no session (403).
    case accountLocked
    case rateLimited(retryAfter: Int)
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// A recovery sign-in: the session, and which kind of code opened it.
package struct RecoveryAuthentication: Sendable {
    package let session: IssuedSession
    package let source: RecoveryCodeSource
}

/// `POST /v1/recovery/sessions`: a recovery code opens a short `recovery` session, which counts
/// as a recent sign-in (so the user can add a new passkey at once).
///
/// Failures count against the password limits (per email and per address), counted before the
/// code is checked like a password attempt. Every outcome takes a digest and one transaction that
/// locks the code by its digest (none is found for an unknown email, a wrong or an expired code);
/// a wrong code of an existing account also records its `sign-in.failed` (docs/security.md on
/// what that costs in time).
///
/// A double submit is not a guess: a use that loses the race to the use that consumed the same
/// code (the database says so, for a use at most `recentUseWindow` before this one arrived) answers
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

    let store: any UnitOfWork
    let failures: FailedSignInRecorder
    let attempts: AttemptCounter
    let gate: AttemptGate
    let digester: any SecretDigester
    let issuer: SessionIssuer
    let policy: PasskeyPolicy
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, failures: FailedSignInRecorder? = nil, rateLimits: any RateLimitRepository,
        digester: any SecretDigester,
        issuer: SessionIssuer, policy: PasskeyPolicy, notifier: SecurityNotifier = .off, clock: any WallClock,
        gate: AttemptGate, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.store = store
        self.failures = failures ?? FailedSignInRecorder(store: store)
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
        async throws(RecoveryAuthenticationError) -> RecoveryAuthentication
    {
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard let code = RecoveryCode(presented: rawCode) else { throw .invalidRequest(field: "code") }
        let digest = digester.sha256(Array(code.canonical.utf8))
        let key =
            "recovery-code:" + email.normalized + ":" + digest.map { String($0, radix: 16) }.joined(separator: ".")
        // When this use arrived, before it waits in line behind the other uses of the code: "just
        // now" is measured from here, so a burst that waits long in the line (a busy machine)
        // still finds its winner's use recent.
        let arrivedAt = clock.now
        let outcome = try await Failure.catching {
            () async throws(RepositoryError) -> Result<RecoveryAuthentication, Failure>?
            in
            try await gate.withKeys([key]) { () async throws(RepositoryError) in
                do throws(Failure) {
                    return .success(
                        try await attempt(
                            email: email, digest: digest, clientAddress: clientAddress, origin: origin,
                            arrivedAt: arrivedAt))
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let outcome else { throw .rateLimited(retryAfter: 1) }  // too many uses of this code waiting
        return try outcome.get()
    }

    private func attempt(
        email: EmailAddress, digest: [UInt8], clientAddress: String, origin: RequestOrigin, arrivedAt: Date
    ) async throws(Failure) -> RecoveryAuthentication {
        let attempt = try await attempts.begin(email: email, clientAddress: clientAddress, as: Failure.self)
        let now = clock.now
        let prepared = issuer.prepare(method: .recovery, now: now, lifetime: policy.recoverySessionLifetime)
        let window = Self.recentUseWindow
        let success = events.pending(
            .signIn(.recovery, credentialID: nil), sessionID: prepared.id, at: now, from: origin)
        let failure = events.pending(.signInFailed(.recovery), sessionID: nil, at: now, from: origin)
        let redemption = try await store.transaction(as: Failure.self) {
            tx async throws(RepositoryError) -> RecoveryCodeRedemption in
            // The code's row lock decides: of concurrent uses, the first consumes it; each later
            // one waits for the lock, then reads the winner's `usedAt` and learns it lost just now.
            guard
                let code = try await tx.recoveryCodes.lock(digest: digest, normalizedEmail: email.normalized, now: now)
            else { return .notFound }
            if let usedAt = code.usedAt {
                return usedAt > arrivedAt.addingTimeInterval(-window) ? .usedJustNow : .notFound
            }
            // (v4) Read `FOR KEY SHARE` after the code's lock (the order a deletion locks them in):
            // a lock being written is waited for, a later one waits for this session and ends it.
            if try await tx.accounts.isLockedForSignIn(code.account.id) { return .accountLocked }
            try await tx.recoveryCodes.markUsed(code.id, at: now)
            try await tx.sessions.insert(prepared.stored(for: code.account))
            try await tx.events.record(success.event(accountID: code.account.id))
            // Read, not locked: this transaction holds the code's row, which a replacement of the
            // set (holding the account's lock) waits for; locking the account now could deadlock.
            if let account = try await tx.accounts.read(code.account.id) {
                let method: SecurityNotice.RecoveryMethod = code.source == .operator ? .operatorCode : .recoveryCode
                try await tx.queue(notifier.mail(.recoverySignIn(method), for: account, at: now, from: origin))
            }
            return .redeemed(account: code.account, source: code.source)
        }
        switch redemption {
        case .notFound:
            // A wrong code of an existing account is a failed sign-in of it (an unknown address
            // records nothing); writing it never changes this answer.
            await failures.record(failure, normalizedEmail: email.normalized)
            throw .invalidCredentials  // the attempt stays counted
        case .usedJustNow:
            try await attempts.forgive(attempt, as: Failure.self)  // a double submit, not a guess
            throw .invalidCredentials
        case .accountLocked:
            try await attempts.forgive(attempt, as: Failure.self)  // the right code: not a guess
            throw .accountLocked
        case .redeemed(let account, let source):
            try await attempts.forgive(attempt, as: Failure.self)
            return RecoveryAuthentication(session: prepared.issued(for: account), source: source)
        }
    }

    private typealias Failure = RecoveryAuthenticationError
}
