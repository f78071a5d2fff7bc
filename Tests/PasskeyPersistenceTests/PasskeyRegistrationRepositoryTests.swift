import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// Adding a passkey to an account: its challenge (`PostgresPasskeyRegistrationRepository`). The
/// passkey itself is stored through the unit of work (`PasskeyWriterTests`, and the limit under
/// concurrency in `PasskeyRegistrationFinishUseCaseTests`).
@Suite struct PasskeyRegistrationRepositoryTests {
    @Test func registrationChallengeIsConsumedOnceByItsAccountOnly() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            let challenge = PasskeyRegistrationChallenge(
                accountID: owner.id, challenge: DomainFixtures.challenge(), mode: .conditional,
                expiresAt: Date().addingTimeInterval(300))
            try await repos.passkeyRegistrations.saveRegistrationChallenge(challenge)

            #expect(
                try await repos.passkeyRegistrations.consumeRegistrationChallenge(
                    id: challenge.id, accountID: other.id, now: Date()) == nil)
            let consumed = try await repos.passkeyRegistrations.consumeRegistrationChallenge(
                id: challenge.id, accountID: owner.id, now: Date())
            #expect(consumed?.challenge == challenge.challenge)
            #expect(consumed?.mode == .conditional)
            #expect(consumed?.consumedAt != nil)
            #expect(
                try await repos.passkeyRegistrations.consumeRegistrationChallenge(
                    id: challenge.id, accountID: owner.id, now: Date()) == nil)
        }
    }

    @Test func anExpiredChallengeIsRefused() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount()
            let expiredRegistration = PasskeyRegistrationChallenge(
                accountID: owner.id, challenge: DomainFixtures.challenge(), mode: .modal,
                expiresAt: Date().addingTimeInterval(-1))
            try await repos.passkeyRegistrations.saveRegistrationChallenge(expiredRegistration)
            #expect(
                try await repos.passkeyRegistrations.consumeRegistrationChallenge(
                    id: expiredRegistration.id, accountID: owner.id, now: Date())
                    == nil)
        }
    }

    /// 16 consumers on 16 separate connections race for one challenge, 50 rounds: exactly one wins each time.
    @Test func consumeOnceHoldsUnderARealRace() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            try await openConnections(16, of: pool)
            for round in 0..<50 {
                let registration = PasskeyRegistrationChallenge(
                    accountID: account.id, challenge: DomainFixtures.challenge(), mode: .modal,
                    expiresAt: Date().addingTimeInterval(300))
                try await repos.passkeyRegistrations.saveRegistrationChallenge(registration)
                let winners = try await race(16) {
                    try await repos.passkeyRegistrations.consumeRegistrationChallenge(
                        id: registration.id, accountID: account.id, now: Date())
                        != nil
                }
                #expect(winners == 1, "round \(round): one winner per challenge")
            }
        }
    }
}
