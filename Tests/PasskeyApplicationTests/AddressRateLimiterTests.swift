import PasskeyApplication
import PasskeyTestSupport
import Testing

/// Per-address budgets: starts per minute, sign-ups per window; 0 turns a budget off without
/// asking the database.
@Suite struct AddressRateLimiterTests {
    @Test func startsAreCountedPerAddressPerMinute() async throws {
        let limits = InMemoryRateLimitRepository()
        let limiter = AddressRateLimiter(repository: limits, limitPerMinute: 2)
        #expect(try await limiter.check(clientAddress: "192.0.2.1") == .allowed)
        #expect(try await limiter.check(clientAddress: "192.0.2.1") == .allowed)
        #expect(try await limiter.check(clientAddress: "192.0.2.1") == .limited(retryAfter: 60))
        #expect(try await limiter.check(clientAddress: "192.0.2.2") == .allowed)
        #expect(limits.hits(on: "start:192.0.2.1") == 3)
        #expect(limits.hits(on: "signup:192.0.2.1") == 0)
    }

    @Test func signupsAreCountedPerAddressPerWindowApartFromStarts() async throws {
        let limits = InMemoryRateLimitRepository()
        let limiter = AddressRateLimiter(
            repository: limits, limitPerMinute: 1, signupLimit: 1, signupWindowSeconds: 900)
        #expect(try await limiter.check(clientAddress: "192.0.2.1") == .allowed)
        #expect(try await limiter.checkSignup(clientAddress: "192.0.2.1") == .allowed)
        #expect(try await limiter.checkSignup(clientAddress: "192.0.2.1") == .limited(retryAfter: 900))
        #expect(limits.hits(on: "signup:192.0.2.1") == 2)
        #expect(limits.hits(on: "start:192.0.2.1") == 1)
    }

    @Test func aSignupWindowBelowOneSecondIsOneSecond() async throws {
        let limiter = AddressRateLimiter(
            repository: InMemoryRateLimitRepository(), limitPerMinute: 0, signupLimit: 1, signupWindowSeconds: 0)
        _ = try await limiter.checkSignup(clientAddress: "192.0.2.1")
        #expect(try await limiter.checkSignup(clientAddress: "192.0.2.1") == .limited(retryAfter: 1))
    }

    @Test func aBudgetOfZeroAllowsEverythingWithoutAskingTheRepository() async throws {
        let limits = InMemoryRateLimitRepository()
        limits.failNext(.unavailable)  // would surface had the repository been asked
        let limiter = AddressRateLimiter(repository: limits, limitPerMinute: 0, signupLimit: 0)
        for _ in 0..<5 {
            #expect(try await limiter.check(clientAddress: "192.0.2.1") == .allowed)
            #expect(try await limiter.checkSignup(clientAddress: "192.0.2.1") == .allowed)
        }
    }

    @Test func repositoryErrorsPassThroughUnchanged() async throws {
        let limits = InMemoryRateLimitRepository()
        let limiter = AddressRateLimiter(repository: limits, limitPerMinute: 5, signupLimit: 5)
        limits.failNext(.unavailable)
        await #expect(throws: RepositoryError.unavailable) { try await limiter.check(clientAddress: "192.0.2.1") }
        limits.failNext(.scripted("countHit"))
        await #expect(throws: RepositoryError.scripted("countHit")) {
            try await limiter.checkSignup(clientAddress: "192.0.2.1")
        }
    }
}
