internal import PasskeyDomain

/// Why a password sign-in failed. Unknown email and wrong password are the same case.
package enum PasswordAuthenticationError: Error, Hashable, Sendable {
    case invalidRequest(field: String)
    case invalidCredentials
    /// (v4) The right password of an account the support desk locked: no session (403).
    case accountLocked
    case rateLimited(retryAfter: Int)
    /// The password-hashing queue is full (`PASSWORD_HASH_QUEUE_LIMIT`); retry shortly.
    case hashingBusy
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// A successful password sign-in.
package struct PasswordAuthentication: Sendable {
    package let session: IssuedSession
    /// Why the stored hash could not be upgraded although it needed it (legacy or weaker
    /// parameters); the sign-in succeeded anyway and the old hash stays. For the caller's log.
    package let rehashFailure: PasswordHashingError?
}

/// Password sign-in: the first step of the migration (a conditional upgrade may follow).
///
/// Every attempt is counted in the database before the password is checked, atomically with
/// the limit check, and un-counted only when it succeeds: however many guesses arrive at once,
/// at most the limit are ever checked, and while limited even the right password is refused.
package struct PasswordAuthenticationUseCase: Sendable {
    let accounts: any AccountRepository
    let sessions: any SessionRepository
    let failures: FailedSignInRecorder
    let attempts: AttemptCounter
    let hasher: any PasswordHasher
    let issuer: SessionIssuer
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        accounts: any AccountRepository, sessions: any SessionRepository, failures: FailedSignInRecorder,
        rateLimits: any RateLimitRepository,
        hasher: any PasswordHasher, issuer: SessionIssuer, policy: PasskeyPolicy, clock: any WallClock,
        gate: AttemptGate = AttemptGate(), events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.accounts = accounts
        self.sessions = sessions
        self.failures = failures
        self.attempts = AttemptCounter(rateLimits: rateLimits, gate: gate, limits: policy.attemptLimits)
        self.hasher = hasher
        self.issuer = issuer
        self.clock = clock
    }

    /// `clientAddress` is what the per-address limit counts; `origin` is what the events name
    /// (nil: `clientAddress`, no user agent).
    package func execute(email rawEmail: String, password: String, clientAddress: String, origin: RequestOrigin? = nil)
        async throws(PasswordAuthenticationError) -> PasswordAuthentication
    {
        let origin = origin ?? RequestOrigin(clientAddress: clientAddress)
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest(field: "email") }
        guard !password.isEmpty, password.utf8.count <= PasswordRules.maximumBytes else {
            throw .invalidRequest(field: "password")
        }
        let attempt = try await attempts.begin(email: email, clientAddress: clientAddress, as: Failure.self)
        let found: PasswordAccount
        let needsRehash: Bool
        switch try await Failure.catching({ () async throws(RepositoryError) in try await check(password, of: email) })
        {
        case .wrong:
            // The attempt stays counted. `sign-in.failed` is written for an existing account only,
            // and writing it never changes this answer.
            let failed = events.pending(.signInFailed(.password), sessionID: nil, at: clock.now, from: origin)
            await failures.record(failed, normalizedEmail: email.normalized)
            throw .invalidCredentials
        case .busy:
            // Nothing was checked: the attempt is not the user's failure.
            try await attempts.forgive(attempt, as: Failure.self)
            throw .hashingBusy
        case .verified(let account, let rehash):
            found = account
            needsRehash = rehash
        }
        try await attempts.forgive(attempt, as: Failure.self)
        // (v4) A locked account: the password checked out, so the answer says so, and nothing is
        // changed (no re-hash, no session, no event). A lock that commits after this read is
        // seen by the statement that writes the session.
        if found.isLocked { throw .accountLocked }
        let now = clock.now
        // A failed upgrade of the hash does not fail the sign-in (the old hash still verifies):
        // it is returned for the caller to log, as inner layers do not log.
        var upgraded: String?
        var rehashFailure: PasswordHashingError?
        if needsRehash {
            do {
                upgraded = try await hasher.hash(password)
            } catch {
                rehashFailure = error
            }
        }
        let authentication = try await Failure.catching {
            () async throws(RepositoryError) -> Result<PasswordAuthentication, Failure> in
            if let upgraded {
                try await accounts.updatePasswordHash(
                    accountID: found.account.id, from: found.credential.passwordHash, to: upgraded, at: now)
            }
            let (stored, issued) = issuer.make(for: found.account, method: .password, now: now)
            let event = events.event(
                .signIn(.password, credentialID: nil), accountID: found.account.id, sessionID: stored.id, at: now,
                from: origin)
            // The hash that verified (or its upgrade, which replaces it only from that hash) must
            // still be the account's when the session is written: else the password changed or
            // was taken back under this sign-in, and the old password no longer signs in.
            switch try await sessions.createSession(
                stored, event: event, whilePasswordHashIs: upgraded ?? found.credential.passwordHash)
            {
            case .created: return .success(PasswordAuthentication(session: issued, rehashFailure: rehashFailure))
            case .passwordChanged: return .failure(.invalidCredentials)
            case .accountLocked: return .failure(.accountLocked)
            }
        }
        return try authentication.get()
    }

    private typealias Failure = PasswordAuthenticationError

    private enum Verdict {
        case verified(PasswordAccount, needsRehash: Bool)
        case wrong
        case busy
    }

    /// The password checked against the account's hash, or against a dummy for an unknown email
    /// (same work, same answer).
    private func check(_ password: String, of email: EmailAddress) async throws(RepositoryError) -> Verdict {
        guard let found = try await accounts.passwordAccount(normalizedEmail: email.normalized) else {
            do {
                try await hasher.verifyAgainstDummy(password)
            } catch {
                return error == .busy ? .busy : .wrong
            }
            return .wrong
        }
        do {
            switch try await hasher.verify(password, against: found.credential.passwordHash) {
            case .mismatch: return .wrong
            case .match(let needsRehash): return .verified(found, needsRehash: needsRehash)
            }
        } catch {
            return error == .busy ? .busy : .wrong
        }
    }
}
