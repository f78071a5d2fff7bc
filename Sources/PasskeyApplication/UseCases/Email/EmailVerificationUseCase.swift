internal import Foundation
internal import PasskeyDomain

/// `POST /v1/account/email/verification` and `.../verification/confirm`: the signed-in user
/// proves their current address with a mailed `verify` code.
///
/// Wrong codes count against the account's password failure limit (per email, and per client
/// address), counted before the code is checked like a password attempt; a confirmed code or an
/// already verified address forgives the attempt.
package struct EmailVerificationUseCase: Sendable {
    let codes: any EmailCodeRepository
    let accounts: any AccountRepository
    let attempts: AttemptCounter
    let maker: EmailCodeMaker
    let composer: MailComposer
    let policy: MailPolicy
    let clock: any WallClock

    package init(
        codes: any EmailCodeRepository, accounts: any AccountRepository, rateLimits: any RateLimitRepository,
        maker: EmailCodeMaker, composer: MailComposer, policy: PasskeyPolicy, clock: any WallClock,
        gate: AttemptGate
    ) {
        self.codes = codes
        self.accounts = accounts
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.maker = maker
        self.composer = composer
        self.policy = policy.mail
        self.clock = clock
    }

    /// Mails a new code to the account's address; earlier unused `verify` codes stop working.
    package func request(session: ActiveSession) async throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
        let now = clock.now
        let (code, draft) = maker.make(purpose: .verify, now: now, lifetime: policy.codeLifetime)
        let composer = composer
        let issue = try await EmailFlowError.catching { () async throws(RepositoryError) in
            try await codes.issueVerificationCode(
                accountID: session.account.id, draft: draft, sendsPerHour: policy.sendsPerHour
            ) { recipient, language in
                composer.codeMail(
                    id: draft.id, purpose: .verify, code: code, to: recipient, language: language, now: now,
                    expiresAt: draft.expiresAt)
            }
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
        async throws(EmailFlowError) -> AccountSummary
    {
        let origin = origin ?? RequestOrigin(clientAddress: clientAddress)
        guard policy.enabled else { throw .mailUnavailable }
        let summary = try await EmailCodeFlows.summary(of: session.account.id, in: accounts)
        if summary.emailVerified { throw .alreadyVerified }
        let attempt = try await attempts.begin(
            email: summary.email, clientAddress: clientAddress, as: EmailFlowError.self)
        let now = clock.now
        let event = AccountEventMaker(random: maker.random).event(
            .emailVerified, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let confirmation = try await EmailFlowError.catching { () async throws(RepositoryError) in
            try await codes.confirmVerification(
                accountID: session.account.id, now: now, maximumTries: policy.maximumCodeTries,
                matches: maker.matcher(presented: code), event: event)
        }
        switch confirmation {
        case .accountGone: throw .unauthorized
        case .wrongCode, .emailTaken:
            throw .invalidCode  // the attempt stays counted
        case .alreadyVerified:
            try await attempts.forgive(attempt, as: EmailFlowError.self)
            throw .alreadyVerified
        case .confirmed:
            try await attempts.forgive(attempt, as: EmailFlowError.self)
            return try await EmailCodeFlows.summary(of: session.account.id, in: accounts)
        }
    }

    /// Mail off: 503 `mail-unavailable`, answered before the body is read.
    package func checkEnabled() throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
    }
}
