package import PasskeyDomain

/// Why a password account could not be created.
package enum PasswordAccountRegistrationError: Error, Hashable, Sendable {
    /// A field is malformed; names the field (never its value).
    case invalidRequest(field: String)
    /// Fewer than 8 characters (or over 1024 bytes).
    case weakPassword
    case emailTaken
    /// Too many sign-ups from this client address (`RATE_LIMIT_SIGNUPS_PER_ADDRESS`).
    case rateLimited(retryAfter: Int)
    /// The password-hashing queue is full (`PASSWORD_HASH_QUEUE_LIMIT`); retry shortly.
    case hashingBusy
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// Sign-up with email, display name and password (the "existing users" of the migration).
package struct PasswordAccountRegistrationUseCase: Sendable {
    let store: any UnitOfWork
    let hasher: any PasswordHasher
    let limiter: AddressRateLimiter
    let clock: any WallClock
    /// (v3) The verification code mailed with the new account (nil: mail off).
    let verification: SignUpVerification?
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, hasher: any PasswordHasher, limiter: AddressRateLimiter, clock: any WallClock,
        verification: SignUpVerification? = nil, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.store = store
        self.hasher = hasher
        self.limiter = limiter
        self.clock = clock
        self.verification = verification
    }

    /// Validates, counts the sign-up against the client address's budget (before any hashing,
    /// so a refused flood costs no Argon2 work), hashes, and creates the account.
    /// `language`: what the request's `Accept-Language` preferred, the language of the account's mails.
    package func execute(
        email rawEmail: String, displayName rawName: String, password: String, clientAddress: String,
        language: MailLanguage = .english, origin: RequestOrigin? = nil
    ) async throws(PasswordAccountRegistrationError) -> Account {
        let origin = origin ?? RequestOrigin(clientAddress: clientAddress)
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard let displayName = DisplayName(rawName) else { throw .invalidRequest(field: "displayName") }
        guard PasswordRules.isAcceptable(password) else { throw .weakPassword }
        let decision: RateLimitDecision
        do {
            decision = try await limiter.checkSignup(clientAddress: clientAddress)
        } catch {
            throw .init(error)
        }
        if case .limited(let retryAfter) = decision { throw .rateLimited(retryAfter: retryAfter) }
        let hash: String
        do {
            hash = try await hasher.hash(password)
        } catch {
            switch error {
            case .busy: throw .hashingBusy
            case .failed: throw .internalFailure(cause: FailureCause(error))
            }
        }
        let now = clock.now
        let account = Account(id: AccountID(), displayName: displayName, createdAt: now)
        let accountEmail = AccountEmail(accountID: account.id, email: email, language: language)
        let code = verification?.mail(to: email, language: language, now: now)
        let event = events.event(
            .accountCreated(.password), accountID: account.id, sessionID: nil, at: now, from: origin)
        do {
            try await store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.insert(account)
                try await tx.accounts.insert(accountEmail)
                try await tx.accounts.setPassword(account.id, hash: hash, at: now)
                if let code { try await tx.store(code, of: account.id, sentTo: email) }
                try await tx.events.record(event)
            }
        } catch {
            switch error {
            case .conflict(.emailTaken): throw .emailTaken
            case .unavailable: throw .unavailable
            case .conflict, .accountGone, .sessionEnded, .failure: throw .internalFailure(cause: FailureCause(error))
            }
        }
        return account
    }
}

/// NIST SP 800-63B: at least 8 characters, no composition rules; at most 1024 bytes.
package enum PasswordRules {
    package static let minimumCharacters = 8
    package static let maximumBytes = 1024

    package static func isAcceptable(_ password: String) -> Bool {
        password.count >= minimumCharacters && password.utf8.count <= maximumBytes
    }
}
