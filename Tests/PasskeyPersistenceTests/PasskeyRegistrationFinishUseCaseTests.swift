import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PasskeyRegistrationFinishUseCase` over `PostgresUnitOfWork`: the passkey limit under real
/// concurrency (its other rules are tested on the in-memory store in PasskeyApplicationTests).
@Suite struct PasskeyRegistrationFinishUseCaseTests {
    /// N concurrent finishes on an account one short of the limit: exactly one is stored, the
    /// others are refused as over the limit. Five rounds, each on its own account, so that a
    /// count without the account's lock (which sees none of the others' uncommitted inserts) is
    /// all but sure to overshoot in one of them.
    @Test func concurrentAdditionsOneShortOfTheLimitStoreExactlyOne() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            var policy = PasskeyPolicy()
            policy.maxPasskeysPerAccount = 5
            let useCase = PasskeyRegistrationFinishUseCase(
                registrations: repos.passkeyRegistrations, store: repos.store, verifier: ScriptedCredentialVerifier(),
                names: FixedAuthenticatorNames(), policy: policy, clock: SystemClock())
            try await openConnections(16, of: pool)
            for round in 0..<5 {
                let account = try await repos.passwordAccount()
                for _ in 0..<4 { try await repos.addPasskey(DomainFixtures.passkey(accountID: account.id)) }
                let session = try await repos.signedIn(account)
                var challenges: [ChallengeID] = []
                for _ in 0..<16 {
                    let challenge = PasskeyRegistrationChallenge(
                        accountID: account.id, challenge: DomainFixtures.challenge(), mode: .modal,
                        expiresAt: Date().addingTimeInterval(300))
                    try await repos.passkeyRegistrations.saveRegistrationChallenge(challenge)
                    challenges.append(challenge.id)
                }
                let outcomes = try await concurrently(challenges) { challengeID -> PasskeyRegistrationFinishError? in
                    do throws(PasskeyRegistrationFinishError) {
                        _ = try await useCase.execute(
                            session: session, challengeID: challengeID,
                            response: RegistrationResponse(
                                credentialID: DomainFixtures.credentialID().bytes, clientDataJSON: [0x7B, 0x7D],
                                attestationObject: [0xA0], transports: ["internal"]),
                            name: nil, residentKey: true, origin: .example)
                        return nil
                    } catch {
                        return error
                    }
                }
                #expect(outcomes.filter { $0 == nil }.count == 1, "round \(round)")
                #expect(outcomes.filter { $0 == .passkeyLimitReached }.count == 15, "round \(round)")
                #expect(try await repos.passkeys.credentials(accountID: account.id).count == 5, "round \(round)")
            }
        }
    }
}
