package import PasskeyDomain

/// `GET /.well-known/jwks.json`: the keys a consumer may need, read from the database on every
/// request (so a revoked key leaves the set at once, on every instance; consumers cache the set
/// for `max-age` 300). Empty while tokens are off.
package struct KeySetUseCase: Sendable {
    let repository: (any SigningKeyRepository)?
    let policy: TokenPolicy
    let clock: any WallClock

    /// `repository` nil: tokens off.
    package init(repository: (any SigningKeyRepository)?, policy: TokenPolicy, clock: any WallClock) {
        self.repository = repository
        self.policy = policy
        self.clock = clock
    }

    package func execute() async throws(RepositoryError) -> [SigningKey] {
        guard let repository else { return [] }
        let set = SigningKeySet(try await repository.keys(includingRevoked: false))
        return set.published(at: clock.now, tokenLifetime: policy.lifetime)
    }
}
