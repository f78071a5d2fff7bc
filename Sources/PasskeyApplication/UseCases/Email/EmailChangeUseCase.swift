internal import Foundation
internal import PasskeyDomain

/// The account with the address a code just confirmed.
package struct ChangedEmail: Sendable {
    package let summary: AccountSummary
}

/// `PUT /v1/account/email` (recent sign-in) and `POST /v1/account/email/confirm`: a `change`
/// code goes to the *new* address; nothing changes until it comes back. The confirmation makes
/// the new address the account's, verified, and tells the old address when it was verified.
/// Wrong codes count like wrong passwords of the account (see `EmailVerificationUseCase`).
package struct EmailChangeUseCase: Sendable {
    let store: any UnitOfWork
    let accounts: any AccountRepository
    let attempts: AttemptCounter
    let gate: AttemptGate
    let maker: EmailCodeMaker
    let composer: MailComposer
    let notifier: SecurityNotifier
    let policy: MailPolicy
    let clock: any WallClock
    let limiter: AddressRateLimiter?

    /// `limiter`: the start and sign-up budgets of client addresses (the server always passes
    /// one; nil, in unit tests of other branches, leaves only the per-account budget).
    package init(
        store: any UnitOfWork, accounts: any AccountRepository, rateLimits: any RateLimitRepository,
        maker: EmailCodeMaker, composer: MailComposer, notifier: SecurityNotifier = .off, policy: PasskeyPolicy,
        clock: any WallClock, gate: AttemptGate, limiter: AddressRateLimiter? = nil
    ) {
        self.limiter = limiter
        self.notifier = notifier
        self.store = store
        self.accounts = accounts
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.gate = gate
        self.maker = maker
        self.composer = composer
        self.policy = policy.mail
        self.clock = clock
    }

    /// Mails a code to `rawEmail`; earlier unused `change` codes of the account stop working.
    ///
    /// Every request, whatever it answers, costs one hit of the client address's start budget and
    /// of its sign-up budget, and one of the account's change budget (`2 × EMAIL_SENDS_PER_HOUR`
    /// an hour): `email-taken` tells whether an address has an account, so without these the
    /// endpoint answered that for 500 addresses a second (security round 4, finding 5).
    package func request(session: RecentSession, email rawEmail: String, clientAddress: String)
        async throws(EmailFlowError)
    {
        guard policy.enabled else { throw .mailUnavailable }
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        try await spendBudgets(of: session.account.id, clientAddress: clientAddress)
        let now = clock.now
        let (code, draft) = maker.make(purpose: .change, now: now, lifetime: policy.codeLifetime)
        let composer = composer
        let sendsPerHour = policy.sendsPerHour
        let issue = try await store.transaction(as: EmailFlowError.self) {
            tx async throws(RepositoryError) -> EmailCodeIssue in
            guard let account = try await tx.accounts.lock(session.account.id) else { return .accountGone }
            try await tx.requireLive(session.session, at: now)
            if try await tx.accounts.isTaken(email, byOtherThan: account.id) { return .emailTaken }
            let mail = composer.codeMail(
                id: draft.id, purpose: .change, code: code, to: email, language: account.language, now: now,
                expiresAt: draft.expiresAt)
            return try await EmailCodeFlows.issue(
                EmailCodeMail(draft: draft, mail: mail), of: account.id, to: email, sendsPerHour: sendsPerHour, in: tx)
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

    private func spendBudgets(of accountID: AccountID, clientAddress: String) async throws(EmailFlowError) {
        let perAccount = EmailCodeFlows.sendsPerAccountPerHour(policy.sendsPerHour)
        let decisions = try await EmailFlowError.catching { () async throws(RepositoryError) -> [RateLimitDecision] in
            var decisions = [
                try await attempts.rateLimits.countHit(
                    key: "email-change:" + accountID.uuid.uuidString, limit: perAccount, windowSeconds: 3600)
            ]
            if let limiter {
                decisions.append(try await limiter.check(clientAddress: clientAddress))
                decisions.append(try await limiter.checkSignup(clientAddress: clientAddress))
            }
            return decisions
        }
        let waits = decisions.compactMap { decision -> Int? in
            if case .limited(let retryAfter) = decision { return retryAfter }
            return nil
        }
        if let retryAfter = waits.max() { throw .rateLimited(retryAfter: retryAfter) }
    }

    /// Consumes the code: the account's address is the new one, verified.
    package func confirm(session: ActiveSession, code: String, clientAddress: String, origin: RequestOrigin)
        async throws(EmailFlowError) -> ChangedEmail
    {
        guard policy.enabled else { throw .mailUnavailable }
        // Uses of one code wait in line (a double submit is decided once, the others answered
        // without counting: security round 4, finding 13).
        let arrivedAt = clock.now
        let key = EmailCodeFlows.gateKey(session.account.id.description, code: code, digester: maker.digester)
        return try await gate.inLine(key, as: EmailFlowError.self) { () async throws(EmailFlowError) in
            try await confirmInLine(
                session: session, code: code, clientAddress: clientAddress, origin: origin, arrivedAt: arrivedAt)
        }
    }

    private func confirmInLine(
        session: ActiveSession, code: String, clientAddress: String, origin: RequestOrigin, arrivedAt: Date
    ) async throws(EmailFlowError) -> ChangedEmail {
        let summary = try await EmailCodeFlows.summary(of: session.account.id, in: accounts)
        let attempt = try await attempts.begin(
            email: summary.email, clientAddress: clientAddress, as: EmailFlowError.self)
        let now = clock.now
        let event = AccountEventMaker(random: maker.random).event(
            .emailChanged, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let notifier = notifier
        let matches = maker.matcher(presented: code)
        let maximumTries = policy.maximumCodeTries
        let confirmation: EmailCodeConfirmation
        do {
            confirmation = try await store.transaction { tx async throws(RepositoryError) -> EmailCodeConfirmation in
                guard let account = try await tx.accounts.lock(session.account.id) else { return .accountGone }
                try await tx.requireLive(session.session, at: now)
                let used: LockedEmailCode
                switch try await EmailCodeFlows.consume(
                    .change, of: account.id, matches: matches, maximumTries: maximumTries, now: now,
                    arrivedAt: arrivedAt, in: tx)
                {
                case .consumed(let code): used = code
                case .usedJustNow: return .usedJustNow
                case .wrong: return .wrongCode
                }
                guard let newEmail = EmailAddress(used.email) else { return .wrongCode }
                // Taken meanwhile: nothing changes (the rollback leaves the code unused).
                try await tx.emailCodes.lockRecipient(newEmail.normalized)
                if try await tx.accounts.isTaken(newEmail, byOtherThan: account.id) { throw .conflict(.emailTaken) }
                try await tx.queue(notifier.mail(.emailChanged, for: account, at: now, from: origin))
                try await tx.accounts.changeEmail(account.id, to: newEmail, verifiedAt: now)
                // Codes mailed to the old address (a sign-in code, above all) stop working with it
                // (security round 4, finding 10); so do any other codes of the account.
                for purpose in EmailCodePurpose.allCases {
                    try await tx.emailCodes.voidUnused(purpose, of: account.id, at: now)
                }
                try await tx.events.record(event)
                return .confirmed
            }
        } catch {
            // Taken meanwhile, or by a sign-up in the same instant (the unique key decided).
            if case .conflict(.emailTaken) = error {
                try await attempts.forgive(attempt, as: EmailFlowError.self)
                throw .emailTaken
            }
            throw EmailFlowError(error)
        }
        switch confirmation {
        case .accountGone: throw .unauthorized
        case .wrongCode:
            throw .invalidCode  // the attempt stays counted
        case .usedJustNow:
            try await attempts.forgive(attempt, as: EmailFlowError.self)  // a double submit, not a guess
            throw .invalidCode
        case .emailTaken, .alreadyVerified:
            try await attempts.forgive(attempt, as: EmailFlowError.self)
            throw .emailTaken
        case .confirmed:
            try await attempts.forgive(attempt, as: EmailFlowError.self)
            return ChangedEmail(summary: try await EmailCodeFlows.summary(of: session.account.id, in: accounts))
        }
    }

    /// Mail off: 503 `mail-unavailable`, answered before the body is read.
    package func checkEnabled() throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
    }
}
