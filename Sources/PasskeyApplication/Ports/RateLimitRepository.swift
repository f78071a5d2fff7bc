package import Foundation

/// The verdict of a rate limit.
package enum RateLimitDecision: Hashable, Sendable {
    case allowed
    /// Refused; the client may retry after this many seconds.
    case limited(retryAfter: Int)
}

/// Failed password attempts inside the window, for one email and one client address.
package struct PasswordFailureCounts: Hashable, Sendable {
    package let forEmail: Int
    package let forAddress: Int
    /// Seconds until the oldest counted failure leaves the window (for Retry-After).
    package let retryAfter: Int

    package init(forEmail: Int, forAddress: Int, retryAfter: Int) {
        self.forEmail = forEmail
        self.forAddress = forAddress
        self.retryAfter = retryAfter
    }
}

/// Rate-limit state kept in the database, so limits hold across restarts and instances.
package protocol RateLimitRepository: Sendable {
    /// Counts one option issuance for `clientAddress` in the current minute and decides.
    func registerStart(clientAddress: String, limitPerMinute: Int) async throws(RepositoryError) -> RateLimitDecision

    /// Failures within `window` before now.
    func passwordFailures(normalizedEmail: String, clientAddress: String, window: TimeInterval)
        async throws(RepositoryError) -> PasswordFailureCounts

    func recordPasswordFailure(normalizedEmail: String, clientAddress: String) async throws(RepositoryError)
}
