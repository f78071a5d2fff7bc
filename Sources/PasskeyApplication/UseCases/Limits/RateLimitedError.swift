/// A use-case error that can say "too many, retry later" besides the storage cases: every
/// options-issuing start (`ChallengeIssuer`) and every attempt at a secret (`AttemptCounter`).
/// The enums' `rateLimited(retryAfter:)` case is the witness.
package protocol RateLimitedError: RepositoryBackedError {
    static func rateLimited(retryAfter: Int) -> Self
}

extension PasskeyRegistrationStartError: RateLimitedError {}
extension PasskeyAccountRegistrationStartError: RateLimitedError {}
extension PasskeyAuthenticationStartError: RateLimitedError {}
extension PasswordAuthenticationError: RateLimitedError {}
extension RecoveryAuthenticationError: RateLimitedError {}
