internal import Foundation
internal import PasskeyDomain

/// `PUT /v1/account/email` (recent sign-in) and `POST /v1/account/email/confirm`: a `change`
/// code goes to the *new* address; nothing changes until it comes back. The confirmation makes
/// the new address the account's, verified, and tells the old address when it was verified.
/// Wrong codes count like wrong passwords of the account (see `EmailVerificationUseCase`).
package struct EmailChangeUseCase: Sendable {
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

    /// Mails a code to `rawEmail`; earlier unused `change` codes of the account stop working.
    package func request(session: RecentSession, email rawEmail: String) async throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        let now = clock.now
        let (code, draft) = maker.make(purpose: .change, now: now, lifetime: policy.codeLifetime)
        let composer = composer
        let issue = try await EmailFlowError.catching { () async throws(RepositoryError) in
            try await codes.issueChangeCode(
                accountID: session.account.id, newEmail: email, draft: draft, sendsPerHour: policy.sendsPerHour
            ) { recipient, language in
                composer.codeMail(
                    id: draft.id, purpose: .change, code: code, to: recipient, language: language, now: now,
                    expiresAt: draft.expiresAt)
            }
        }
        switch issue {
        case .issued: return
        case .emailTaken: throw .emailTaken
        case .limited(let retryAfter): throw .rateLimited(retryAfter: retryAfter)
        case .accountGone: throw .unauthorized
        case .alreadyVerified:
            throw .internalFailure(cause: FailureCause(BrokenInvariant("a change code met already-verified")))
        }
    }

    /// Consumes the code: the account's address is the new one, verified.
    package func confirm(session: ActiveSession, code: String, clientAddress: String, origin: RequestOrigin)
        async throws(EmailFlowError) -> AccountSummary
    {
        guard policy.enabled else { throw .mailUnavailable }
        let summary = try await EmailCodeFlows.summary(of: session.account.id, in: accounts)
        let attempt = try await attempts.begin(
            email: summary.email, clientAddress: clientAddress, as: EmailFlowError.self)
        let now = clock.now
        let composer = composer
        var notice: (@Sendable (EmailAddress, MailLanguage, EmailAddress) -> OutgoingMail)?
        if policy.securityNotifications {
            let random = maker.random
            notice = { @Sendable old, language, new in
                composer.notice(
                    id: random.uuid(),
                    SecurityNotice(
                        kind: .emailChanged(newAddress: new), occurredAt: now, clientAddress: origin.clientAddress),
                    to: old, language: language)
            }
        }
        let event = AccountEventMaker(random: maker.random).event(
            .emailChanged, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let confirmation: EmailCodeConfirmation
        do {
            confirmation = try await codes.confirmChange(
                accountID: session.account.id, now: now, maximumTries: policy.maximumCodeTries,
                matches: maker.matcher(presented: code), notice: notice, event: event)
        } catch {
            // A sign-up that took the address in the same instant: the unique key decided.
            if case .conflict(.emailTaken) = error { throw .emailTaken }
            throw EmailFlowError(error)
        }
        switch confirmation {
        case .accountGone: throw .unauthorized
        case .wrongCode:
            throw .invalidCode  // the attempt stays counted
        case .emailTaken, .alreadyVerified:
            try await attempts.forgive(attempt, as: EmailFlowError.self)
            throw .emailTaken
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
