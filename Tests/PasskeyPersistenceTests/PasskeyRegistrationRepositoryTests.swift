import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// Adding a passkey to an account: its challenge and the credential insert
/// (`PostgresPasskeyRegistrationRepository`).
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

    @Test func aCredentialRoundTripsEveryField() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let created = Date(timeIntervalSince1970: 1_795_000_000.123456)
            let passkey = DomainFixtures.passkey(
                id: DomainFixtures.credentialID(Array(repeating: 0xAB, count: 1023)), accountID: account.id,
                signCount: UInt32.max, backupEligible: true, backupState: false, transports: [],
                name: "Yubikey 5 🔑", createdAt: created)
            try await repos.passkeyRegistrations.addCredential(passkey, limit: 50)
            let stored = try #require(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id })
            #expect(stored == passkey)
        }
    }

    @Test func aDuplicateCredentialIDIsAConflictNamingItsConstraint() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let first = try await repos.passwordAccount()
            let second = try await repos.passwordAccount()
            let id = DomainFixtures.credentialID()
            try await repos.passkeyRegistrations.addCredential(
                DomainFixtures.passkey(id: id, accountID: first.id), limit: 50)
            await #expect(throws: RepositoryError.conflict(.credentialExists)) {
                try await repos.passkeyRegistrations.addCredential(
                    DomainFixtures.passkey(id: id, accountID: second.id), limit: 50)
            }
        }
    }

    @Test func aCredentialBeyondTheLimitIsNotStored() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            // Another account's passkeys do not count.
            #expect(
                try await repos.passkeyRegistrations.addCredential(
                    DomainFixtures.passkey(accountID: other.id), limit: 1) == .added)
            #expect(
                try await repos.passkeyRegistrations.addCredential(
                    DomainFixtures.passkey(accountID: account.id), limit: 2) == .added)
            #expect(
                try await repos.passkeyRegistrations.addCredential(
                    DomainFixtures.passkey(accountID: account.id), limit: 2) == .added)
            #expect(
                try await repos.passkeyRegistrations.addCredential(
                    DomainFixtures.passkey(accountID: account.id), limit: 2) == .limitReached)
            #expect(try await repos.passkeys.credentials(accountID: account.id).count == 2)
        }
    }

    /// N concurrent additions to an account one short of the limit: exactly one is stored. Five
    /// rounds, each on its own account, so that a count without the lock (which sees none of the
    /// others' uncommitted inserts) is all but sure to overshoot in one of them.
    @Test func concurrentAdditionsOneShortOfTheLimitStoreExactlyOne() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            try await openConnections(16, of: pool)
            for _ in 0..<5 {
                let account = try await repos.passwordAccount()
                for _ in 0..<4 {
                    try await repos.passkeyRegistrations.addCredential(
                        DomainFixtures.passkey(accountID: account.id), limit: 5)
                }
                let added = try await race(16) {
                    try await repos.passkeyRegistrations.addCredential(
                        DomainFixtures.passkey(accountID: account.id), limit: 5) == .added
                }
                #expect(added == 1)
                #expect(try await repos.passkeys.credentials(accountID: account.id).count == 5)
            }
        }
    }
}
