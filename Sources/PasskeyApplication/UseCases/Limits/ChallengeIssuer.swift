internal import Foundation
internal import PasskeyDomain

/// What every options-issuing start shares (adding a passkey, signing up with one, signing in
/// with one): the start counts against the client address's budget (`AddressRateLimiter`), and
/// an allowed start saves a fresh random challenge that expires after the policy's lifetime.
struct ChallengeIssuer: Sendable {
    /// A challenge about to be issued: an ID for what carries it, the random bytes, the expiry.
    struct Fresh: Sendable {
        let id: UUID
        let challenge: Challenge
        let expiresAt: Date
    }

    let limiter: AddressRateLimiter
    let random: any RandomGenerator
    let policy: PasskeyPolicy
    let clock: any WallClock

    /// A new challenge, valid for the policy's challenge lifetime from now.
    func fresh() -> Fresh {
        Fresh(
            id: random.uuid(), challenge: Challenge(bytes: random.bytes(count: Challenge.length)),
            expiresAt: clock.now.addingTimeInterval(policy.challengeLifetime))
    }

    /// Counts the start against the address's budget; `.rateLimited` once it is used up.
    func admit<Failure: RateLimitedError>(clientAddress: String, as _: Failure.Type) async throws(Failure) {
        let decision = try await Failure.catching { () async throws(RepositoryError) in
            try await limiter.check(clientAddress: clientAddress)
        }
        if case .limited(let retryAfter) = decision { throw .rateLimited(retryAfter: retryAfter) }
    }

    /// Draws a fresh challenge, builds what carries it (`make`), and saves that (`save`) if the
    /// address may start; the one sequence of the starts that need nothing else from storage.
    func issue<Issued, Failure: RateLimitedError>(
        clientAddress: String, as failure: Failure.Type, make: (Fresh) -> Issued,
        save: (Issued) async throws(RepositoryError) -> Void
    ) async throws(Failure) -> Issued {
        let issued = make(fresh())
        try await admit(clientAddress: clientAddress, as: failure)
        try await Failure.catching { () async throws(RepositoryError) in try await save(issued) }
        return issued
    }
}
