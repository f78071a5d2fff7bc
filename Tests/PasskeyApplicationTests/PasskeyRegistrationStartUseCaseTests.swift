import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Adding a passkey, start: the recent sign-in for `modal`, the fresh password sign-in for
/// `conditional`, the start limit, and the options built from the account.
@Suite struct PasskeyRegistrationStartUseCaseTests {
    private struct Fixture {
        let accounts = InMemoryStore()
        let registrations = InMemoryPasskeyRegistrationRepository()
        let limits = InMemoryRateLimitRepository()
        let random = SequentialRandomGenerator()
        let clock = FixedClock()
        let account = DomainFixtures.account(displayName: "Hanako Sato")
        var policy = PasskeyPolicy(
            challengeLifetime: 120, conditionalUpgradeWindow: 300, startsPerMinute: 2, reauthenticationWindow: 600)

        var useCase: PasskeyRegistrationStartUseCase {
            PasskeyRegistrationStartUseCase(
                accounts: accounts, registrations: registrations,
                limiter: AddressRateLimiter(repository: limits, limitPerMinute: policy.startsPerMinute),
                random: random, policy: policy, clock: clock)
        }

        init() async throws {
            accounts.addAccount(account, email: "Hanako@Example.com", passwordHash: "hash:pw")
        }

        /// The account's passkeys are exactly `passkeys`.
        func setPasskeys(_ passkeys: [PasskeyCredential]) {
            accounts.update { $0.passkeys = passkeys }
        }

        /// A session of the account that signed in `age` seconds ago.
        func session(_ method: AuthenticationMethod = .password, age: TimeInterval = 0) -> ActiveSession {
            .signedIn(account, method: method, at: clock.now.addingTimeInterval(-age))
        }

        func start(_ session: ActiveSession, _ mode: RegistrationMode) async throws(PasskeyRegistrationStartError)
            -> PasskeyRegistrationStart
        {
            try await useCase.execute(session: session, mode: mode, clientAddress: "192.0.2.7")
        }
    }

    @Test func modalStartStoresAChallengeForTheAccountAndOffersItsOptions() async throws {
        let f = try await Fixture()
        let passkeys = [DomainFixtures.passkey(accountID: f.account.id, transports: ["usb"])]
        f.setPasskeys(passkeys)
        let start = try await f.start(f.session(), .modal)

        let stored = try #require(f.registrations.challenge(id: start.challengeID))
        #expect(stored.accountID == f.account.id)
        #expect(stored.mode == .modal)
        #expect(stored.consumedAt == nil)
        #expect(stored.expiresAt == f.clock.now.addingTimeInterval(120))
        #expect(start.expiresAt == stored.expiresAt)
        #expect(start.mode == .modal)
        let options = start.options
        #expect(options.challenge == stored.challenge)
        #expect(options.challenge.bytes.count == Challenge.length)
        #expect(options.relyingPartyID == "localhost")
        #expect(options.relyingPartyName == "Passkey Server")
        #expect(options.userHandle == f.account.id.userHandle)
        #expect(options.userName == "Hanako@Example.com")
        #expect(options.userDisplayName == "Hanako Sato")
        #expect(options.algorithms == [.es256, .edDSA, .rs256])
        #expect(options.timeoutMilliseconds == 120_000)
        #expect(options.excludeCredentials == [CredentialDescriptor(id: passkeys[0].id, transports: ["usb"])])
        #expect(options.userVerification == .required)
    }

    @Test func modalStartCarriesTheConfiguredUserVerification() async throws {
        var f = try await Fixture()
        f.policy.userVerification = .preferred
        let start = try await f.start(f.session(), .modal)
        #expect(start.options.userVerification == .preferred)
    }

    @Test func modalStartNeedsASignInWithinTheReauthenticationWindow() async throws {
        let f = try await Fixture()
        _ = try await f.start(f.session(.passkey, age: 600), .modal)
        await #expect(throws: PasskeyRegistrationStartError.reauthenticationRequired) {
            try await f.start(f.session(.passkey, age: 601), .modal)
        }
        #expect(f.registrations.challenges.count == 1)
        #expect(f.limits.hits(on: "start:192.0.2.7") == 1)
    }

    @Test func conditionalStartOffersPreferredUserVerificationToAFreshPasswordSession() async throws {
        let f = try await Fixture()
        let start = try await f.start(f.session(.password, age: 299), .conditional)
        #expect(start.mode == .conditional)
        #expect(start.options.userVerification == .preferred)
        #expect(f.registrations.challenge(id: start.challengeID)?.mode == .conditional)
    }

    /// Spec v3: with a step-up window shorter than the upgrade window, conditional mode is bounded
    /// by the step-up window (at most its seconds ago, as for a modal start), so a stolen password
    /// token too old for a modal start cannot add a passkey in conditional mode instead.
    @Test func conditionalStartIsAlsoBoundedByAShorterReauthenticationWindow() async throws {
        var f = try await Fixture()
        f.policy.reauthenticationWindow = 100
        let start = try await f.start(f.session(.password, age: 100), .conditional)
        #expect(start.mode == .conditional)
        await #expect(throws: PasskeyRegistrationStartError.conditionalNotAllowed) {
            try await f.start(f.session(.password, age: 101), .conditional)
        }
        #expect(f.registrations.challenges.count == 1)
        #expect(f.limits.hits(on: "start:192.0.2.7") == 1)
    }

    /// With the default windows (upgrade 300 < step-up 600) the upgrade window stays the bound.
    @Test func conditionalStartWithinTheUpgradeWindowIsNotRefusedByTheLongerReauthenticationWindow()
        async throws
    {
        let f = try await Fixture()
        let start = try await f.start(f.session(.password, age: 299.9), .conditional)
        #expect(start.mode == .conditional)
    }

    @Test(arguments: [RegistrationMode.modal, .conditional])
    func aStartOnAnAccountAtThePasskeyLimitIsRefusedWithoutAChallenge(mode: RegistrationMode) async throws {
        var f = try await Fixture()
        f.policy.maxPasskeysPerAccount = 3
        f.policy.startsPerMinute = 100
        let passkeys = (1...3).map {
            DomainFixtures.passkey(id: DomainFixtures.credentialID([UInt8($0)]), accountID: f.account.id)
        }
        f.setPasskeys(Array(passkeys.prefix(2)))
        _ = try await f.start(f.session(), mode)
        f.setPasskeys(passkeys)
        await #expect(throws: PasskeyRegistrationStartError.passkeyLimitReached) {
            try await f.start(f.session(), mode)
        }
        #expect(f.registrations.challenges.count == 1)
    }

    @Test func theOptionsAskForNoAttestationUnlessThePolicyChecksChains() async throws {
        var f = try await Fixture()
        #expect(try await f.start(f.session(), .modal).options.attestation == .none)
        f.policy.attestationConveyance = .direct
        #expect(try await f.start(f.session(), .modal).options.attestation == .direct)
    }

    @Test(arguments: [
        (AuthenticationMethod.password, 300.0), (.password, 301), (.passkey, 0), (.recovery, 0),
    ])
    func conditionalStartIsOnlyForAPasswordSignInYoungerThanTheWindow(method: AuthenticationMethod, age: Double)
        async throws
    {
        let f = try await Fixture()
        await #expect(throws: PasskeyRegistrationStartError.conditionalNotAllowed) {
            try await f.start(f.session(method, age: age), .conditional)
        }
        #expect(f.registrations.challenges.isEmpty)
        #expect(f.limits.hits(on: "start:192.0.2.7") == 0)
    }

    @Test func theStartLimitRefusesWithoutReadingTheAccountOrStoringAChallenge() async throws {
        let f = try await Fixture()
        _ = try await f.start(f.session(), .modal)
        _ = try await f.start(f.session(), .modal)
        // Were the account read, this failure would surface instead of the limit.
        f.accounts.failNext(.unavailable)
        await #expect(throws: PasskeyRegistrationStartError.rateLimited(retryAfter: 60)) {
            try await f.start(f.session(), .modal)
        }
        #expect(f.registrations.challenges.count == 2)
    }

    /// The account deleted between the token's check and the start: 401, as if it were gone (spec v3).
    @Test func anAccountDeletedUnderTheStartIsUnauthorized() async throws {
        let f = try await Fixture()
        f.accounts.update { $0.cascadeDelete(f.account.id) }
        await #expect(throws: PasskeyRegistrationStartError.unauthorized) {
            try await f.start(f.session(), .modal)
        }
        #expect(f.registrations.challenges.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        var f = try await Fixture()
        f.policy.startsPerMinute = 100
        f.limits.failNext(.unavailable)
        await #expect(throws: PasskeyRegistrationStartError.unavailable) { try await f.start(f.session(), .modal) }
        f.accounts.failNext(.scripted("accountSummary"))
        await #expect(throws: PasskeyRegistrationStartError.internalFailure(cause: .scripted("accountSummary"))) {
            try await f.start(f.session(), .modal)
        }
        f.registrations.failNext(.unavailable)
        await #expect(throws: PasskeyRegistrationStartError.unavailable) { try await f.start(f.session(), .modal) }
        f.registrations.failNext(.scripted("saveRegistrationChallenge"))
        await #expect(
            throws: PasskeyRegistrationStartError.internalFailure(cause: .scripted("saveRegistrationChallenge"))
        ) {
            try await f.start(f.session(), .modal)
        }
        #expect(f.registrations.challenges.isEmpty)
    }
}
