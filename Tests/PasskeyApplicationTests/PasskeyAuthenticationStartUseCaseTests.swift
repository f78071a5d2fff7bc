import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Passkey sign-in, start: one challenge bound to no account, under the start limit.
@Suite struct PasskeyAuthenticationStartUseCaseTests {
    private struct Fixture {
        let authentications = InMemoryPasskeyAuthenticationRepository()
        let limits = InMemoryRateLimitRepository()
        let random = SequentialRandomGenerator()
        let clock = FixedClock()
        var policy = PasskeyPolicy(relyingPartyID: "example.com", challengeLifetime: 90, startsPerMinute: 1)

        var useCase: PasskeyAuthenticationStartUseCase {
            PasskeyAuthenticationStartUseCase(
                authentications: authentications,
                limiter: AddressRateLimiter(repository: limits, limitPerMinute: policy.startsPerMinute),
                random: random, policy: policy, clock: clock)
        }

        func start() async throws(PasskeyAuthenticationStartError) -> PasskeyAuthenticationStart {
            try await useCase.execute(clientAddress: "203.0.113.9")
        }
    }

    @Test func aStartStoresOneChallengeAndOffersItForDiscoverableCredentials() async throws {
        let f = Fixture()
        let start = try await f.start()
        let stored = try #require(f.authentications.challenges.first)
        #expect(f.authentications.challenges.count == 1)
        #expect(stored.id == start.challengeID)
        #expect(stored.consumedAt == nil)
        #expect(stored.expiresAt == f.clock.now.addingTimeInterval(90))
        #expect(stored.challenge.bytes.count == Challenge.length)
        #expect(start.expiresAt == stored.expiresAt)
        #expect(
            start.options
                == CredentialRequestOptions(
                    relyingPartyID: "example.com", challenge: stored.challenge, timeoutMilliseconds: 90_000,
                    userVerification: .required))
    }

    @Test func eachStartHasItsOwnChallenge() async throws {
        var f = Fixture()
        f.policy.startsPerMinute = 0
        let first = try await f.start()
        let second = try await f.start()
        #expect(first.challengeID != second.challengeID)
        #expect(first.options.challenge != second.options.challenge)
        #expect(f.authentications.challenges.count == 2)
    }

    @Test func theStartLimitRefusesAndStoresNothing() async throws {
        let f = Fixture()
        _ = try await f.start()
        await #expect(throws: PasskeyAuthenticationStartError.rateLimited(retryAfter: 60)) { try await f.start() }
        #expect(f.authentications.challenges.count == 1)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        var f = Fixture()
        f.policy.startsPerMinute = 100
        f.limits.failNext(.unavailable)
        await #expect(throws: PasskeyAuthenticationStartError.unavailable) { try await f.start() }
        f.limits.failNext(.scripted("countHit"))
        await #expect(throws: PasskeyAuthenticationStartError.internalFailure(cause: .scripted("countHit"))) {
            try await f.start()
        }
        f.authentications.failNext(.unavailable)
        await #expect(throws: PasskeyAuthenticationStartError.unavailable) { try await f.start() }
        f.authentications.failNext(.conflict(.other("passkey_authentication_challenges_pkey")))
        await #expect(
            throws: PasskeyAuthenticationStartError.internalFailure(
                cause: FailureCause(RepositoryError.conflict(.other("passkey_authentication_challenges_pkey"))))
        ) {
            try await f.start()
        }
        #expect(f.authentications.challenges.isEmpty)
    }
}
