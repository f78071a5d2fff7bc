/// Per-address budgets kept in the database: the three option-issuing (start) endpoints
/// together, per minute; password sign-ups, per `RATE_LIMIT_WINDOW_SECONDS`.
package struct AddressRateLimiter: Sendable {
    let repository: any RateLimitRepository
    let limitPerMinute: Int
    let signupLimit: Int
    let signupWindowSeconds: Int

    package init(
        repository: any RateLimitRepository, limitPerMinute: Int, signupLimit: Int = 0, signupWindowSeconds: Int = 900
    ) {
        self.repository = repository
        self.limitPerMinute = limitPerMinute
        self.signupLimit = signupLimit
        self.signupWindowSeconds = max(1, signupWindowSeconds)
    }

    /// One option issuance; `.allowed` without touching the database when the limit is off (0).
    package func check(clientAddress: String) async throws(RepositoryError) -> RateLimitDecision {
        guard limitPerMinute > 0 else { return .allowed }
        return try await repository.countHit(key: "start:" + clientAddress, limit: limitPerMinute, windowSeconds: 60)
    }

    /// One password sign-up; `.allowed` without touching the database when the limit is off (0).
    package func checkSignup(clientAddress: String) async throws(RepositoryError) -> RateLimitDecision {
        guard signupLimit > 0 else { return .allowed }
        return try await repository.countHit(
            key: "signup:" + clientAddress, limit: signupLimit, windowSeconds: signupWindowSeconds)
    }
}
