import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PasskeyAccountRegistrationFinishUseCase` over `PostgresUnitOfWork`: one winner of concurrent
/// finishes, and the order of its conflicts as the database reports them (its other branches are
/// tested on the in-memory store in PasskeyApplicationTests).
@Suite struct PasskeyAccountRegistrationFinishUseCaseTests {
    static func useCase(_ repos: Repositories) -> PasskeyAccountRegistrationFinishUseCase {
        PasskeyAccountRegistrationFinishUseCase(
            registrations: repos.registrations, store: repos.store, verifier: ScriptedCredentialVerifier(),
            names: FixedAuthenticatorNames(),
            issuer: SessionIssuer(tokens: RandomSessionTokens(), random: SystemRandomBytes(), lifetime: 3600),
            limiter: AddressRateLimiter(repository: repos.rateLimits, limitPerMinute: 0), policy: PasskeyPolicy(),
            clock: SystemClock())
    }

    /// A sign-up's registration, as the sheet flow records it (no email or name yet), stored.
    static func registration(_ repos: Repositories) async throws -> PasskeyAccountRegistration {
        let registration = AccountRegistrationRepositoryTests.registration()
        try await repos.registrations.saveAccountRegistration(registration)
        return registration
    }

    static func finish(
        _ useCase: PasskeyAccountRegistrationFinishUseCase, _ registration: PasskeyAccountRegistration, email: String,
        credentialID: CredentialID = DomainFixtures.credentialID()
    ) async -> PasskeyAccountRegistrationFinishError? {
        do {
            _ = try await useCase.execute(
                registrationID: registration.id, email: email, displayName: "New User",
                response: RegistrationResponse(
                    credentialID: credentialID.bytes, clientDataJSON: [0x7B, 0x7D], attestationObject: [0xA0],
                    transports: ["hybrid"]),
                name: nil, residentKey: true, clientAddress: "192.0.2.7")
            return nil
        } catch {
            return error
        }
    }

    @Test func concurrentCompletionsOfOneRegistrationHaveOneWinner() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let useCase = Self.useCase(repos)
            let r = try await Self.registration(repos)
            try await openConnections(16, of: pool)
            let outcomes = try await concurrently(Array(0..<16)) { i in
                await Self.finish(useCase, r, email: "racer\(i)@example.com")
            }
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.filter { $0 == .registrationUnavailable }.count == 15)
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.count("SELECT count(*) FROM passkey_credentials") == 1)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 1)
        }
    }

    /// Contract v3: a registered credential is reported before a taken email, so reusing one
    /// credential cannot test which addresses have accounts.
    @Test func aRegisteredCredentialIsReportedBeforeATakenEmail() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let useCase = Self.useCase(repos)
            let credentialID = DomainFixtures.credentialID()
            let first = try await Self.registration(repos)
            #expect(await Self.finish(useCase, first, email: "taken@example.com", credentialID: credentialID) == nil)
            let second = try await Self.registration(repos)
            #expect(
                await Self.finish(useCase, second, email: "taken@example.com", credentialID: credentialID)
                    == .credentialExists)
            #expect(await Self.finish(useCase, second, email: "taken@example.com") == .emailTaken)
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            // Both refusals left the registration usable for a retry.
            #expect(await Self.finish(useCase, second, email: "free@example.com") == nil)
        }
    }
}
