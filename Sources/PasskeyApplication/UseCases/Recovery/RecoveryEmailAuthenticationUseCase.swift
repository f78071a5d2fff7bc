internal import Foundation
internal import PasskeyDomain

/// A sign-in by a mailed code: the session, and whether the account was taken back.
package struct EmailRecoverySignIn: Sendable {
    package let session: IssuedSession
    package let reclaimed: Bool
}

/// `POST /v1/recovery/email/sessions`: a mailed `sign-in` code opens a short `email` session,
/// which counts as a recent sign-in and verifies the address. On an address that was never
/// verified it also takes the account back: in the same transaction, the password, passkeys and
/// recovery codes are deleted and every other session ends.
///
/// Failures count against the password limits (per email and per address), counted before the
/// code is checked. Unknown email, wrong, used and expired codes are one answer.
package struct RecoveryEmailAuthenticationUseCase: Sendable {
    let store: any UnitOfWork
    let attempts: AttemptCounter
    let gate: AttemptGate
    let maker: EmailCodeMaker
    let issuer: SessionIssuer
    let notifier: SecurityNotifier
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(
        store: any UnitOfWork, rateLimits: any RateLimitRepository, maker: EmailCodeMaker,
        issuer: SessionIssuer, notifier: SecurityNotifier = .off, policy: PasskeyPolicy, clock: any WallClock,
        gate: AttemptGate
    ) {
        self.store = store
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.gate = gate
        self.maker = maker
        self.issuer = issuer
        self.notifier = notifier
        self.policy = policy
        self.clock = clock
    }

    /// The session, and whether the account was taken back (for the warning the caller logs).
    package func execute(email rawEmail: String, code: String, origin: RequestOrigin, clientAddress: String)
        async throws(RecoveryEmailAuthenticationError) -> EmailRecoverySignIn
    {
        guard policy.mail.enabled else { throw .mailUnavailable }
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        // Uses of one code wait in line here, so a double-submitted form is one sign-in and the
        // other uses are answered like a used code without counting (security round 4, finding 13).
        let arrivedAt = clock.now
        let key = EmailCodeFlows.gateKey(email.normalized, code: code, digester: maker.digester)
        return try await gate.inLine(key, as: RecoveryEmailAuthenticationError.self) {
            () async throws(RecoveryEmailAuthenticationError) in
            try await attempt(
                email: email, code: code, origin: origin, clientAddress: clientAddress, arrivedAt: arrivedAt)
        }
    }

    private func attempt(
        email: EmailAddress, code: String, origin: RequestOrigin, clientAddress: String, arrivedAt: Date
    ) async throws(RecoveryEmailAuthenticationError) -> EmailRecoverySignIn {
        // A spent email budget lets the right code through (strangers' wrong codes must not lock
        // the owner out of the take-back; the code bounds its own guesses), the address's refuses.
        let admission = try await attempts.admit(
            email: email, clientAddress: clientAddress, as: RecoveryEmailAuthenticationError.self)
        let now = clock.now
        let prepared = issuer.prepare(method: .email, now: now, lifetime: policy.recoverySessionLifetime)
        let notifier = notifier
        let events = AccountEventMaker(random: maker.random)
        let success = events.pending(.signIn(.email, credentialID: nil), sessionID: prepared.id, at: now, from: origin)
        let failure = events.pending(.signInFailed(.email), sessionID: nil, at: now, from: origin)
        let reclaimed = events.pending(.accountReclaimed, sessionID: prepared.id, at: now, from: origin)
        let matches = maker.matcher(presented: code)
        let maximumTries = policy.mail.maximumCodeTries
        let redemption = try await store.transaction(as: RecoveryEmailAuthenticationError.self) {
            tx async throws(RepositoryError) -> RecoveryEmailRedemption in
            // An unknown address writes nothing; a wrong or missing code of an account is its failed sign-in.
            guard let account = try await tx.accounts.lock(normalizedEmail: email.normalized) else { return .invalid }
            // (v4) A locked account (the lock above waits for one being written): the right code is
            // answered as such and left unused; nothing is taken back.
            let locked = account.lock != nil
            switch try await EmailCodeFlows.consume(
                .signIn, of: account.id, matches: matches, maximumTries: maximumTries, now: now, arrivedAt: arrivedAt,
                in: tx, use: !locked)
            {
            case .consumed where locked: return .accountLocked
            case .consumed: break
            case .usedJustNow: return .usedJustNow
            case .wrong:
                try await tx.events.record(failure.event(accountID: account.id))
                return .invalid
            }
            let session = prepared.stored(for: account.account)
            if !account.emailVerified {
                // The take-back: whoever set the account up without owning the address loses its
                // password, passkeys and recovery codes, and every other session ends.
                try await tx.accounts.deletePassword(account.id)
                try await tx.passkeys.deleteAll(of: account.id)
                try await tx.recoveryCodes.deleteAll(of: account.id)
                try await tx.sessions.revoke(.all, of: account.id, except: session.id, at: now)
                try await tx.events.record(reclaimed.event(accountID: account.id))
            }
            try await tx.accounts.markEmailVerified(account.id, at: now)
            try await tx.sessions.insert(session)
            try await tx.events.record(success.event(accountID: account.id))
            let verified = AccountSnapshot(
                account: account.account, email: account.email, emailVerified: true, language: account.language,
                hasPassword: account.hasPassword && account.emailVerified)
            try await tx.queue(notifier.mail(.recoverySignIn(.email), for: verified, at: now, from: origin))
            return .signedIn(account: account.account, reclaimed: !account.emailVerified)
        }
        let attempt: AttemptID
        var spentEmailBudget: Int?
        switch admission {
        case .counted(let counted): attempt = counted
        case .rightSecretOnly(let counted, let retryAfter): (attempt, spentEmailBudget) = (counted, retryAfter)
        }
        switch redemption {
        case .invalid:
            // The attempt stays counted; past the email's budget, a wrong code answers 429.
            if let retryAfter = spentEmailBudget { throw .rateLimited(retryAfter: retryAfter) }
            throw .invalidCredentials
        case .usedJustNow:
            // A double submit, not a guess.
            try await attempts.forgive(attempt, as: RecoveryEmailAuthenticationError.self)
            if let retryAfter = spentEmailBudget { throw .rateLimited(retryAfter: retryAfter) }
            throw .invalidCredentials
        case .accountLocked:
            try await attempts.forgive(attempt, as: RecoveryEmailAuthenticationError.self)
            throw .accountLocked
        case .signedIn(let account, let reclaimed):
            try await attempts.forgive(attempt, as: RecoveryEmailAuthenticationError.self)
            return EmailRecoverySignIn(session: prepared.issued(for: account), reclaimed: reclaimed)
        }
    }

    /// Mail off: 503 `mail-unavailable`, answered before the body is read.
    package func checkEnabled() throws(RecoveryEmailAuthenticationError) {
        guard policy.mail.enabled else { throw .mailUnavailable }
    }
}
