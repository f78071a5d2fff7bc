import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct ChallengeRepositoryTests {
    @Test func registrationChallengeIsConsumedOnceByItsAccountOnly() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            let challenge = PasskeyRegistrationChallenge(
                accountID: owner.id, challenge: DomainFixtures.challenge(), mode: .conditional,
                expiresAt: Date().addingTimeInterval(300))
            try await repos.challenges.saveRegistrationChallenge(challenge)

            #expect(
                try await repos.challenges.consumeRegistrationChallenge(
                    id: challenge.id, accountID: other.id, now: Date()) == nil)
            let consumed = try await repos.challenges.consumeRegistrationChallenge(
                id: challenge.id, accountID: owner.id, now: Date())
            #expect(consumed?.challenge == challenge.challenge)
            #expect(consumed?.mode == .conditional)
            #expect(consumed?.consumedAt != nil)
            #expect(
                try await repos.challenges.consumeRegistrationChallenge(
                    id: challenge.id, accountID: owner.id, now: Date()) == nil)
        }
    }

    @Test func expiredAndUnknownChallengesAreRefused() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount()
            let expiredRegistration = PasskeyRegistrationChallenge(
                accountID: owner.id, challenge: DomainFixtures.challenge(), mode: .modal,
                expiresAt: Date().addingTimeInterval(-1))
            try await repos.challenges.saveRegistrationChallenge(expiredRegistration)
            #expect(
                try await repos.challenges.consumeRegistrationChallenge(
                    id: expiredRegistration.id, accountID: owner.id, now: Date())
                    == nil)

            let expired = PasskeyAuthenticationChallenge(
                challenge: DomainFixtures.challenge(), expiresAt: Date().addingTimeInterval(-1))
            try await repos.challenges.saveAuthenticationChallenge(expired)
            #expect(
                try await repos.challenges.assertionContext(
                    challengeID: expired.id, credentialID: DomainFixtures.credentialID(), now: Date()
                ).challenge == nil)
            #expect(
                try await repos.challenges.assertionContext(
                    challengeID: ChallengeID(), credentialID: DomainFixtures.credentialID(), now: Date()
                ).challenge == nil)
            // A refused read changed nothing.
            #expect(
                try await repos.count(
                    "SELECT count(*) FROM passkey_authentication_challenges WHERE consumed_at IS NOT NULL") == 0)
        }
    }

    @Test func theAssertionContextReadsChallengeCredentialAndAccountWithoutConsuming() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 7)
            try await repos.passkeys.addCredential(passkey)
            let challenge = PasskeyAuthenticationChallenge(
                challenge: DomainFixtures.challenge(), expiresAt: Date().addingTimeInterval(300))
            try await repos.challenges.saveAuthenticationChallenge(challenge)

            let context = try await repos.challenges.assertionContext(
                challengeID: challenge.id, credentialID: passkey.id, now: Date())
            #expect(context.challenge?.challenge == challenge.challenge)
            #expect(context.credential?.id == passkey.id)
            #expect(context.credential?.signCount == 7)
            #expect(context.account?.id == account.id)
            #expect(
                try await repos.count(
                    "SELECT count(*) FROM passkey_authentication_challenges WHERE consumed_at IS NOT NULL") == 0)

            // Unknown credential: the challenge, no credential, no account.
            let unknown = try await repos.challenges.assertionContext(
                challengeID: challenge.id, credentialID: DomainFixtures.credentialID(), now: Date())
            #expect(unknown.challenge != nil)
            #expect(unknown.credential == nil)
            #expect(unknown.account == nil)

            // Consumed (a failed verification does this): read as unavailable, credential still found.
            #expect(try await repos.challenges.consumeAuthenticationChallenge(id: challenge.id, now: Date()))
            #expect(try await !repos.challenges.consumeAuthenticationChallenge(id: challenge.id, now: Date()))
            let again = try await repos.challenges.assertionContext(
                challengeID: challenge.id, credentialID: passkey.id, now: Date())
            #expect(again.challenge == nil)
            #expect(again.credential?.id == passkey.id)
        }
    }

    /// 16 consumers on 16 separate connections race for one challenge, 50 rounds: exactly one wins each time.
    @Test func consumeOnceHoldsUnderARealRace() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            // Open all 16 connections first so the race is between connections, not connects.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        _ = try await pool.withConnection { c async throws(PostgresError) in
                            try await c.query("SELECT pg_sleep(0.05)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            for round in 0..<50 {
                let authentication = PasskeyAuthenticationChallenge(
                    challenge: DomainFixtures.challenge(), expiresAt: Date().addingTimeInterval(300))
                try await repos.challenges.saveAuthenticationChallenge(authentication)
                let registration = PasskeyRegistrationChallenge(
                    accountID: account.id, challenge: DomainFixtures.challenge(), mode: .modal,
                    expiresAt: Date().addingTimeInterval(300))
                try await repos.challenges.saveRegistrationChallenge(registration)

                let authenticationWinners = try await race(16) {
                    try await repos.challenges.consumeAuthenticationChallenge(id: authentication.id, now: Date())
                }
                let registrationWinners = try await race(16) {
                    try await repos.challenges.consumeRegistrationChallenge(
                        id: registration.id, accountID: account.id, now: Date())
                        != nil
                }
                let winners = authenticationWinners * 100 + registrationWinners
                #expect(winners == 101, "round \(round): one winner per challenge")
            }
        }
    }

    /// Runs `body` `count` times at once and counts how many returned true.
    private func race(_ count: Int, _ body: @escaping @Sendable () async throws -> Bool) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count { group.addTask(operation: body) }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }
}
