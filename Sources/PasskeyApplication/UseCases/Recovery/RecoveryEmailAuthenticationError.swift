/// Why an email sign-in failed. Unknown email, wrong, used and expired codes are one case.
package enum RecoveryEmailAuthenticationError: Error, Hashable, Sendable {
    case mailUnavailable
    case invalidRequest(field: String)
    case invalidCredentials
    /// (v4) The right code of an account the support desk locked: not used, no session (403).
    case accountLocked
    case rateLimited(retryAfter: Int)
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

extension RecoveryEmailAuthenticationError: RateLimitedError {
    package static var accountGone: Self { .invalidCredentials }
}
