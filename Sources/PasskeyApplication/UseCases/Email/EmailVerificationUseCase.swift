internal import Foundation
internal import PasskeyDomain

/// The account whose address a code just proved.
package struct VerifiedEmail: Sendable {
    package let summary: AccountSummary
}

/// `POST /v1/account/email/verification` and `.../verification/confirm`: the signed-in user
/// proves their current address with a mailed `verify` code.
///
/// Wrong codes count against the account's password failure limit (per email, and per client
/// address), counted before the code is checked like a password attempt; a confirmed code or an
/// already verified address forgives the attempt.
package struct EmailVerificationUseCase: Sendable {
    let store: any UnitOfWork
    let accounts: any AccountRepository
    let attempts: AttemptCounter
    let gate: AttemptGate
    let maker: EmailCodeMaker
    let composer: MailComposer
    let policy: MailPolicy
    let clock: any WallClock
    /// The start budget of client addresses (the server always passes one).
    let limiter: AddressRateLimiter?

    package init(
        store: any UnitOfWork, accounts: any AccountRepository, rateLimits: any RateLimitRepository,
        maker: EmailCodeMaker, composer: MailComposer, policy: PasskeyPolicy, clock: any WallClock,
        gate: AttemptGate, limiter: AddressRateLimiter? = nil
    ) {
        self.limiter = limiter
        self.store = store
        self.accounts = accounts
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.gate = gate
        self.maker = maker
        self.composer = composer
        self.policy = policy.mail
        self.clock = clock
    }

    /// Mails a new code to the account's address; earlier unused `verify` codes stop working.
    /// Under the client address's start budget (security round 4, finding 4).
    package func request(session: ActiveSession, clientAddress: String) async throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
        if let limiter {
            let decision = try await EmailFlowError.catching { () async throws(RepositoryError) in
                try await limiter.check(clientAddress: clientAddress)
            }
            if case .limited(let retryAfter) = decision { throw .rateLimited(retryAfter: retryAfter) }
        }
        let now = clock.now
        let (code, draft) = maker.make(purpose: .verify, now: now, lifetime: policy.codeLifetime)
        let composer = composer
        let sendsPerHour = policy.sendsPerHour
        let issue = try await store.transaction(as: EmailFlowError.self) {
            tx async throws(RepositoryError) -> EmailCodeIssue in
            guard let account = try await tx.accounts.lock(session.account.id) else { return .accountGone }
            try await tx.requireLive(session.session, at: now)
            if account.emailVerified { return .alreadyVerified }
            let mail = composer.codeMail(
                id: draft.id, purpose: .verify, code: code, to: account.email, language: account.language, now: now,
                expiresAt: draft.expiresAt)
            return try await EmailCodeFlows.issue(
                EmailCodeMail(draft: draft, mail: mail), of: account.id, to: account.email, sendsPerHour: sendsPerHour,
                in: tx)
        }
        switch issue {
        case .issued: return
        case .alreadyVerified: throw .alreadyVerified
        case .emailTaken: throw .internalFailure(cause: FailureCause(BrokenInvariant("a verify code met email-taken")))
        case .limited(let retryAfter): throw .rateLimited(retryAfter: retryAfter)
        case .accountGone: throw .unauthorized
        }
    }

    /// Consumes the code and answers the account, now verified.
    package func confirm(
        session: ActiveSession, code: String, clientAddress: String,
        origin: RequestOrigin? = nil
    )
        async throws(EmailFlowError) -> VerifiedEmail
    {
        let origin = origin ?? RequestOrigin(clientAddress: clientAddress)
        guard policy.enabled else { throw .mailUnavailable }
        // Uses of one code wait in line (a double submit is decided once, the others answered
        // without counting: security round 4, finding 13).
        let key = EmailCodeFlows.gateKey(session.account.id.description, code: code, digester: maker.digester)
        return try await gate.inLine(key, as: EmailFlowError.self) { () async throws(EmailFlowError) in
            try await confirmInLine(session: session, code: code, clientAddress: clientAddress, origin: origin)
        }
    }

    private func confirmInLine(session: ActiveSession, code: String, clientAddress: String, origin: RequestOrigin)
        async throws(EmailFlowError) -> VerifiedEmail
    {
        let summary = try await EmailCodeFlows.summary(of: session.account.id, in: accounts)
        if summary.emailVerified { throw .alreadyVerified }
        let attempt = try await attempts.begin(
            email: summary.email, clientAddress: clientAddress, as: EmailFlowError.self)
        let now = clock.now
        let event = AccountEventMaker(random: maker.random).event(
            .emailVerified, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let matches = maker.matcher(presented: code)
        let maximumTries = policy.maximumCodeTries
        let confirmation = try await store.transaction(as: EmailFlowError.self) {
            tx async throws(RepositoryError) -> EmailCodeConfirmation in
            guard let account = try await tx.accounts.lock(session.account.id) else { return .accountGone }
            try await tx.requireLive(session.session, at: now)
            if account.emailVerified { return .alreadyVerified }
            guard
                case .consumed = try await EmailCodeFlows.consume(
                    .verify, of: account.id, matches: matches, maximumTries: maximumTries, now: now, arrivedAt: now,
                    in: tx)
            else { return .wrongCode }
            try await tx.accounts.markEmailVerified(account.id, at: now)
            try await tx.events.record(event)
            return .confirmed
        }
        switch confirmation {
        case .accountGone: throw .unauthorized
        case .wrongCode, .emailTaken, .usedJustNow:
            throw .invalidCode  // the attempt stays counted (a verified address answers alreadyVerified first)
        case .alreadyVerified:
            try await attempts.forgive(attempt, as: EmailFlowError.self)
            throw .alreadyVerified
        case .confirmed:
            try await attempts.forgive(attempt, as: EmailFlowError.self)
            return VerifiedEmail(summary: try await EmailCodeFlows.summary(of: session.account.id, in: accounts))
        }
    }

    /// Mail off: 503 `mail-unavailable`, answered before the body is read.
    package func checkEnabled() throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
    }
}
