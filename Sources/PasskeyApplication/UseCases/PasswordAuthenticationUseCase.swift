internal import PasskeyDomain

/// Why a password sign-in failed. Unknown email and wrong password are the same case.
package enum PasswordAuthenticationError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    case invalidCredentials
    case rateLimited(retryAfter: Int)
    case unavailable
    case internalFailure
}

/// Password sign-in: the first step of the migration (a conditional upgrade may follow).
package struct PasswordAuthenticationUseCase: Sendable {
    let accounts: any AccountRepository
    let sessions: any SessionRepository
    let rateLimits: any RateLimitRepository
    let hasher: any PasswordHasher
    let issuer: SessionIssuer
    let policy: PasskeyPolicy
    let clock: any Clock

    package init(
        accounts: any AccountRepository, sessions: any SessionRepository, rateLimits: any RateLimitRepository,
        hasher: any PasswordHasher, issuer: SessionIssuer, policy: PasskeyPolicy, clock: any Clock
    ) {
        self.accounts = accounts
        self.sessions = sessions
        self.rateLimits = rateLimits
        self.hasher = hasher
        self.issuer = issuer
        self.policy = policy
        self.clock = clock
    }

    package func execute(email rawEmail: String, password: String, clientAddress: String)
        async throws(PasswordAuthenticationError) -> IssuedSession
    {
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard !password.isEmpty, password.utf8.count <= PasswordRules.maximumBytes else {
            throw .invalidRequest(field: "password")
        }
        do {
            // While limited, even the right password is refused, so guessing gains nothing.
            let failures = try await rateLimits.passwordFailures(
                normalizedEmail: email.normalized, clientAddress: clientAddress, window: policy.passwordFailureWindow)
            if failures.forEmail >= policy.passwordFailuresPerEmail
                || failures.forAddress >= policy.passwordFailuresPerAddress
            {
                throw PasswordAuthenticationError.rateLimited(retryAfter: max(1, failures.retryAfter))
            }
            guard let found = try await accounts.passwordAccount(normalizedEmail: email.normalized) else {
                await hasher.verifyAgainstDummy(password)
                try await rateLimits.recordPasswordFailure(
                    normalizedEmail: email.normalized, clientAddress: clientAddress)
                throw PasswordAuthenticationError.invalidCredentials
            }
            switch await hasher.verify(password, against: found.credential.passwordHash) {
            case .mismatch:
                try await rateLimits.recordPasswordFailure(
                    normalizedEmail: email.normalized, clientAddress: clientAddress)
                throw PasswordAuthenticationError.invalidCredentials
            case .match(let needsRehash):
                let now = clock.now
                if needsRehash, let upgraded = try? await hasher.hash(password) {
                    try await accounts.updatePasswordHash(
                        accountID: found.account.id, from: found.credential.passwordHash, to: upgraded, at: now)
                }
                let (stored, issued) = issuer.make(for: found.account, method: .password, now: now)
                try await sessions.createSession(stored)
                return issued
            }
        } catch let error as PasswordAuthenticationError {
            throw error
        } catch let error as RepositoryError {
            throw error == .unavailable ? .unavailable : .internalFailure
        } catch {
            throw .internalFailure
        }
    }
}
