internal import Foundation
internal import PasskeyDomain

/// `POST /v1/recovery/email`: a `sign-in` code to the account that has this address. The answer
/// is the same for unknown, unverified and verified addresses and for a recipient over the
/// sending limit: the code and both language versions of its mail are made in every case, and
/// the repository runs the same statements in every case (one of them finds no account, or an
/// exhausted limit, and inserts nothing). Under the start limit per client address.
package struct EmailRecoveryRequestUseCase: Sendable {
    let codes: any EmailCodeRepository
    let limiter: AddressRateLimiter
    let maker: EmailCodeMaker
    let composer: MailComposer
    let policy: MailPolicy
    let clock: any WallClock

    package init(
        codes: any EmailCodeRepository, limiter: AddressRateLimiter, maker: EmailCodeMaker, composer: MailComposer,
        policy: PasskeyPolicy, clock: any WallClock
    ) {
        self.codes = codes
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
        try await EmailFlowError.catching { () async throws(RepositoryError) in
            try await codes.issueSignInCode(
                email: email, draft: draft, sendsPerHour: policy.sendsPerHour, mails: mails)
        }
    }

    /// Mail off: 503 `mail-unavailable`, answered before the body is read.
    package func checkEnabled() throws(EmailFlowError) {
        guard policy.enabled else { throw .mailUnavailable }
    }
}
