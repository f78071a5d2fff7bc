internal import PasskeyDomain

/// Counting the attempts at a secret (a password, a recovery code), as both sign-ins that take
/// one do it: the attempt is counted in the database before the secret is checked (the decision
/// serialised per email and per address by the `AttemptGate`), stays counted when it fails, and
/// is forgiven when it succeeds or when nothing was checked.
struct AttemptCounter: Sendable {
    let rateLimits: any RateLimitRepository
    let gate: AttemptGate
    let limits: AttemptLimits

    /// Counts one attempt for `email` from `clientAddress`; `.rateLimited` (nothing counted) when
    /// either has used up its budget.
    func begin<Failure: RateLimitedError>(email: EmailAddress, clientAddress: String, as _: Failure.Type)
        async throws(Failure) -> AttemptID
    {
        let decision = try await Failure.catching { () async throws(RepositoryError) -> AttemptDecision in
            try await gate.beginAttempt(
                email: email.normalized, clientAddress: clientAddress, limits: limits, in: rateLimits)
        }
        switch decision {
        case .limited(let retryAfter): throw .rateLimited(retryAfter: retryAfter)
        case .allowed(let attempt): return attempt
        case .emailLimited(_, let retryAfter):
            // Only answered when asked for (`admit`); were it, the count stays, like a failure's.
            throw .rateLimited(retryAfter: retryAfter)
        }
    }

    /// What `admit` decided.
    enum Admission: Sendable {
        /// Counted, like `begin`'s attempt.
        case counted(AttemptID)
        /// The email's budget is spent but the address's is not: counted against the address, and
        /// only the right secret may pass (a wrong one answers `rateLimited(retryAfter:)`).
        case rightSecretOnly(AttemptID, retryAfter: Int)
    }

    /// `begin` for a secret that bounds its own guesses (a mailed code): a spent email budget
    /// does not refuse the right secret, so strangers' wrong codes cannot lock the owner out of
    /// the address (security round 4, finding 3). The address's budget still refuses.
    func admit<Failure: RateLimitedError>(email: EmailAddress, clientAddress: String, as _: Failure.Type)
        async throws(Failure) -> Admission
    {
        let decision = try await Failure.catching { () async throws(RepositoryError) -> AttemptDecision in
            try await gate.beginAttempt(
                email: email.normalized, clientAddress: clientAddress, limits: limits,
                rightSecretPassesEmailLimit: true, in: rateLimits)
        }
        switch decision {
        case .limited(let retryAfter): throw .rateLimited(retryAfter: retryAfter)
        case .emailLimited(let attempt, let retryAfter): return .rightSecretOnly(attempt, retryAfter: retryAfter)
        case .allowed(let attempt): return .counted(attempt)
        }
    }

    /// Un-counts an attempt.
    func forgive<Failure: RepositoryBackedError>(_ attempt: AttemptID, as _: Failure.Type) async throws(Failure) {
        try await Failure.catching { () async throws(RepositoryError) in try await rateLimits.forgiveAttempt(attempt) }
    }
}
