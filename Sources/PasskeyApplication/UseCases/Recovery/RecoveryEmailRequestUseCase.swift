internal import Foundation
internal import PasskeyDomain

/// `POST /v1/recovery/email`: a `sign-in` code to the account that has this address. The answer
/// is the same for unknown, unverified and verified addresses and for a recipient over the
/// sending limit: the code and its mail are made in every case, and the same statements lock the
/// recipient, find the account and count the hour's codes in every case; only an account under
/// the limit then gets the code stored and mailed. Under the start limit per client address.
package struct RecoveryEmailRequestUseCase: Sendable {
    let store: any UnitOfWork
    let limiter: AddressRateLimiter
    let maker: EmailCodeMaker
    let composer: MailComposer
    let policy: MailPolicy
    let clock: any WallClock

    package init(
        store: any UnitOfWork, limiter: AddressRateLimiter, maker: EmailCodeMaker, composer: MailComposer,
        policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.store = store
        self.limiter = limiter
        self.maker = maker
        self.composer = composer
        self.policy = policy.mail
        self.clock = clock
    }

    package func execute(email rawEmail: String, clientAddress: String) async throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        let decision = try await EmailFlowError.catching { () async throws(RepositoryError) in
            try await limiter.check(clientAddress: clientAddress)
        }
        if case .limited(let retryAfter) = decision { throw .rateLimited(retryAfter: retryAfter) }
        let now = clock.now
        let (code, draft) = maker.make(purpose: .signIn, now: now, lifetime: policy.codeLifetime)
        var mails: [MailLanguage: OutgoingMail] = [:]
        for language in MailLanguage.allCases {
            mails[language] = composer.codeMail(
                id: draft.id, purpose: .signIn, code: code, to: email, language: language, now: now,
                expiresAt: draft.expiresAt)
        }
        let sendsPerHour = policy.sendsPerHour
        try await store.transaction(as: EmailFlowError.self) { [mails] tx async throws(RepositoryError) in
            let limited = try await EmailCodeFlows.limit(of: email.normalized, at: now, sendsPerHour, in: tx)
            let account = try await tx.accounts.lock(normalizedEmail: email.normalized)
            guard let account, limited == nil, let mail = mails[account.language] else { return }
            // The code and its mail commit without waiting for the disk: an unknown address writes
            // nothing, and the flush made a known one's 202 1.5 ms slower (security round 4,
            // finding 11). A crash may lose the request whole; the user asks again.
            try await tx.relaxDurability()
            // To the address as the account stores it, in the account's language.
            let addressed = OutgoingMail(
                id: mail.id, recipient: account.email, subject: mail.subject, body: mail.body,
                createdAt: mail.createdAt, notAfter: mail.notAfter)
            // Under the account's limit too (a limited request still answers 202: no enumeration).
            _ = try await EmailCodeFlows.issue(
                EmailCodeMail(draft: draft, mail: addressed), of: account.id, to: account.email,
                sendsPerHour: sendsPerHour, in: tx)
        }
    }

    /// Mail off: 503 `mail-unavailable`, answered before the body is read.
    package func checkEnabled() throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
    }
}
