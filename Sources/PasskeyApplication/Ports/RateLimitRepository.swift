package import Foundation

/// The verdict of a rate limit.
package enum RateLimitDecision: Hashable, Sendable {
    case allowed
    /// Refused; the client may retry after this many seconds.
    case limited(retryAfter: Int)
}

/// The budget of password (and, later, recovery-code) attempts: per email and per client
/// address within a sliding window.
package struct AttemptLimits: Hashable, Sendable {
    package let perEmail: Int
    package let perAddress: Int
    package let window: TimeInterval

    package init(perEmail: Int, perAddress: Int, window: TimeInterval) {
        self.perEmail = perEmail
        self.perAddress = perAddress
        self.window = window
    }
}

/// A counted attempt; forgiven (un-counted) when it succeeds.
package struct AttemptID: Hashable, Sendable {
    package let value: Int64

    package init(_ value: Int64) { self.value = value }
}

/// The verdict on one sign-in attempt, decided before the secret is checked.
package enum AttemptDecision: Hashable, Sendable {
    /// Counted as a failure until `forgiveAttempt` says otherwise.
    case allowed(AttemptID)
    /// The email or the address has used up its budget; nothing was counted.
    case limited(retryAfter: Int)
    /// Only for `beginAttempt(…, rightSecretPassesEmailLimit: true)`: the email has used up its
    /// budget, the address has not, and the attempt was counted (against the address; a success
    /// forgives it). A sign-in whose secret guards itself (a mailed code: 5 tries, 5 codes an
    /// hour) lets only the right secret through then, so that strangers' failures cannot lock the
    /// owner out (security round 4, finding 3).
    case emailLimited(AttemptID, retryAfter: Int)
}

/// Rate-limit state kept in the database, so limits hold across restarts and instances and
/// under any concurrency: every decision is one atomic step there.
package protocol RateLimitRepository: Sendable {
    /// Counts one hit on `key` (e.g. `start:ADDRESS`) in a sliding window of `windowSeconds`
    /// and decides: the hit that makes the estimate exceed `limit` and every later one are refused.
    func countHit(key: String, limit: Int, windowSeconds: Int) async throws(RepositoryError) -> RateLimitDecision

    /// Counts an attempt for this email and address unless either has `limits` failures in the
    /// window already. Concurrent calls for one email or address are serialised, so however many
    /// arrive at once, no more than the limit are allowed.
    /// With `rightSecretPassesEmailLimit`, an email whose budget is spent still counts the
    /// attempt while the address has budget, and answers `emailLimited`.
    func beginAttempt(
        normalizedEmail: String, clientAddress: String, limits: AttemptLimits, rightSecretPassesEmailLimit: Bool
    ) async throws(RepositoryError) -> AttemptDecision

    /// Un-counts an attempt that succeeded.
    func forgiveAttempt(_ attempt: AttemptID) async throws(RepositoryError)
}

extension RateLimitRepository {
    /// `beginAttempt` where a spent email budget refuses (`limited`), as for passwords.
    package func beginAttempt(normalizedEmail: String, clientAddress: String, limits: AttemptLimits)
        async throws(RepositoryError) -> AttemptDecision
    {
        try await beginAttempt(
            normalizedEmail: normalizedEmail, clientAddress: clientAddress, limits: limits,
            rightSecretPassesEmailLimit: false)
    }
}
