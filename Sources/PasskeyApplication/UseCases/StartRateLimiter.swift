/// The shared budget of the three option-issuing (start) endpoints per client address.
package struct StartRateLimiter: Sendable {
    let repository: any RateLimitRepository
    let limitPerMinute: Int

    package init(repository: any RateLimitRepository, limitPerMinute: Int) {
        self.repository = repository
        self.limitPerMinute = limitPerMinute
    }

    /// `.allowed` without touching the database when the limit is off (0).
    package func check(clientAddress: String) async throws(RepositoryError) -> RateLimitDecision {
        guard limitPerMinute > 0 else { return .allowed }
        return try await repository.registerStart(clientAddress: clientAddress, limitPerMinute: limitPerMinute)
    }
}
