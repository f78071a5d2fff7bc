import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Passkey sign-up, start: the form flow records email and name, the system-sheet flow neither;
/// the start limit and the options of an account that does not exist yet.
@Suite struct PasskeyAccountRegistrationStartUseCaseTests {
    private struct Fixture {
        let registrations = InMemoryStore()
        let limits = InMemoryRateLimitRepository()
        let random = SequentialRandomGenerator()
        let clock = FixedClock()
        var policy = PasskeyPolicy(challengeLifetime: 180, userVerification: .preferred, startsPerMinute: 1)

        var useCase: PasskeyAccountRegistrationStartUseCase {
            PasskeyAccountRegistrationStartUseCase(
                registrations: registrations,
                limiter: AddressRateLimiter(repository: limits, limitPerMinute: policy.startsPerMinute),
                random: random, policy: policy, clock: clock)
        }

        func start(email: String? = nil, displayName: String? = nil) async throws(PasskeyAccountRegistrationStartError)
            -> PasskeyAccountRegistrationStart
        {
            try await useCase.execute(email: email, displayName: displayName, clientAddress: "198.51.100.4")
        }
    }

    @Test func theFormFlowRecordsEmailAndNameAndOffersThem() async throws {
        let f = Fixture()
        let start = try await f.start(email: " Jiro@Example.com ", displayName: " Jiro ")
        let stored = try #require(f.registrations.tables.accountRegistrations[start.registration.id]?.registration)
        #expect(stored == start.registration)
        #expect(stored.email?.value == "Jiro@Example.com")
        #expect(stored.displayName?.value == "Jiro")
        #expect(stored.expiresAt == f.clock.now.addingTimeInterval(180))
        #expect(stored.completedAt == nil)
        #expect(stored.challenge.bytes.count == Challenge.length)
        #expect(stored.prospectiveAccountID.uuid != stored.id.uuid)
        let options = start.options
        #expect(options.userHandle == stored.prospectiveAccountID.userHandle)
        #expect(options.userName == "Jiro@Example.com")
        #expect(options.userDisplayName == "Jiro")
        #expect(options.challenge == stored.challenge)
        #expect(options.relyingPartyID == "localhost")
        #expect(options.relyingPartyName == "Passkey Server")
        #expect(options.algorithms == [.es256, .edDSA, .rs256])
        #expect(options.timeoutMilliseconds == 180_000)
        #expect(options.excludeCredentials.isEmpty)
        #expect(options.userVerification == .preferred)
    }

    @Test func theSystemSheetFlowRecordsNeitherAndOffersEmptyNames() async throws {
        let f = Fixture()
        let start = try await f.start()
        let stored = try #require(f.registrations.tables.accountRegistrations[start.registration.id]?.registration)
        #expect(stored.email == nil)
        #expect(stored.displayName == nil)
        #expect(start.options.userName == "")
        #expect(start.options.userDisplayName == "")
    }

    @Test(arguments: [("not an email", "Jiro", "email"), ("jiro@example.com", "  ", "displayName")])
    func aMalformedFieldIsRefusedBeforeAnythingIsCountedOrStored(email: String, displayName: String, field: String)
        async throws
    {
        let f = Fixture()
        await #expect(throws: PasskeyAccountRegistrationStartError.invalidRequest(field: field)) {
            try await f.start(email: email, displayName: displayName)
        }
        #expect(f.limits.hits(on: "start:198.51.100.4") == 0)
        #expect(f.registrations.tables.accountRegistrations.values.map(\.registration).isEmpty)
    }

    @Test func theStartLimitRefusesAndStoresNothing() async throws {
        let f = Fixture()
        let first = try await f.start()
        await #expect(throws: PasskeyAccountRegistrationStartError.rateLimited(retryAfter: 60)) {
            try await f.start(email: "jiro@example.com")
        }
        #expect(f.limits.hits(on: "start:198.51.100.4") == 2)
        #expect(f.registrations.tables.accountRegistrations.values.map(\.registration) == [first.registration])
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        var f = Fixture()
        f.policy.startsPerMinute = 0
        f.registrations.failNext(.unavailable)
        await #expect(throws: PasskeyAccountRegistrationStartError.unavailable) { try await f.start() }
        f.registrations.failNext(.scripted("saveAccountRegistration"))
        await #expect(
            throws: PasskeyAccountRegistrationStartError.internalFailure(cause: .scripted("saveAccountRegistration"))
        ) {
            try await f.start()
        }
        f.policy.startsPerMinute = 10
        f.limits.failNext(.unavailable)
        await #expect(throws: PasskeyAccountRegistrationStartError.unavailable) { try await f.start() }
        f.limits.failNext(.scripted("countHit"))
        await #expect(throws: PasskeyAccountRegistrationStartError.internalFailure(cause: .scripted("countHit"))) {
            try await f.start()
        }
    }
}
