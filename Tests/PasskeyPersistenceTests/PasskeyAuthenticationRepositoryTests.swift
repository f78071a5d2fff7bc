import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The sign-in's storage: its challenge, the assertion context and the one write of a verified
/// assertion (`PostgresPasskeyAuthenticationRepository`).
@Suite struct PasskeyAuthenticationRepositoryTests {
    /// A fresh authentication challenge, stored.
    private func challenge(_ repos: Repositories, expiresIn seconds: TimeInterval = 300) async throws -> ChallengeID {
        let challenge = PasskeyAuthenticationChallenge(
            challenge: DomainFixtures.challenge(), expiresAt: Date().addingTimeInterval(seconds))
        try await repos.passkeyAuthentications.saveAuthenticationChallenge(challenge)
        return challenge.id
    }

    private func consumed(_ repos: Repositories, _ id: ChallengeID) async throws -> Bool {
        try await repos.count(
            "SELECT count(*) FROM passkey_authentication_challenges WHERE id = \(id.uuid) AND consumed_at IS NOT NULL")
            == 1
    }

    /// Records an assertion with the `sign-in` event the finish writes with its session.
    private static func record(
        _ repos: Repositories, challengeID: ChallengeID, credentialID: CredentialID, expectedSignCount: UInt32,
        newSignCount: UInt32, backupState: Bool, usedAt: Date, session: AuthenticationSession
    ) async throws -> AssertionRecording {
        try await repos.passkeyAuthentications.recordAssertion(
            challengeID: challengeID, credentialID: credentialID, expectedSignCount: expectedSignCount,
            newSignCount: newSignCount, backupState: backupState, usedAt: usedAt, session: session,
            event: AccountEvent(
                id: AccountEventID(), accountID: session.accountID,
                activity: .signIn(.passkey, credentialID: credentialID), occurredAt: usedAt, clientAddress: "192.0.2.1",
                userAgent: nil, sessionID: session.id))
    }

    /// The `sign-in` events stored.
    private static func signIns(_ repos: Repositories) async throws -> Int {
        try await repos.count("SELECT count(*) FROM account_events WHERE kind = 'sign-in'")
    }

    @Test func expiredAndUnknownChallengesAreRefused() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let expired = PasskeyAuthenticationChallenge(
                challenge: DomainFixtures.challenge(), expiresAt: Date().addingTimeInterval(-1))
            try await repos.passkeyAuthentications.saveAuthenticationChallenge(expired)
            #expect(
                try await repos.passkeyAuthentications.assertionContext(
                    challengeID: expired.id, credentialID: DomainFixtures.credentialID(), now: Date()
                ).challenge == nil)
            #expect(
                try await repos.passkeyAuthentications.assertionContext(
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
            try await repos.addPasskey(passkey)
            let challenge = PasskeyAuthenticationChallenge(
                challenge: DomainFixtures.challenge(), expiresAt: Date().addingTimeInterval(300))
            try await repos.passkeyAuthentications.saveAuthenticationChallenge(challenge)

            let context = try await repos.passkeyAuthentications.assertionContext(
                challengeID: challenge.id, credentialID: passkey.id, now: Date())
            #expect(context.challenge?.challenge == challenge.challenge)
            #expect(context.credential?.id == passkey.id)
            #expect(context.credential?.signCount == 7)
            #expect(context.account?.id == account.id)
            #expect(
                try await repos.count(
                    "SELECT count(*) FROM passkey_authentication_challenges WHERE consumed_at IS NOT NULL") == 0)

            // Unknown credential: the challenge, no credential, no account.
            let unknown = try await repos.passkeyAuthentications.assertionContext(
                challengeID: challenge.id, credentialID: DomainFixtures.credentialID(), now: Date())
            #expect(unknown.challenge != nil)
            #expect(unknown.credential == nil)
            #expect(unknown.account == nil)

            // Consumed (a failed verification does this): read as unavailable, credential still found.
            #expect(
                try await repos.passkeyAuthentications.consumeAuthenticationChallenge(id: challenge.id, now: Date()))
            #expect(
                try await !repos.passkeyAuthentications.consumeAuthenticationChallenge(id: challenge.id, now: Date()))
            let again = try await repos.passkeyAuthentications.assertionContext(
                challengeID: challenge.id, credentialID: passkey.id, now: Date())
            #expect(again.challenge == nil)
            #expect(again.credential?.id == passkey.id)
        }
    }

    /// 16 consumers on 16 separate connections race for one challenge, 50 rounds: exactly one wins each time.
    @Test func consumeOnceHoldsUnderARealRace() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            try await openConnections(16, of: pool)
            for round in 0..<50 {
                let authentication = PasskeyAuthenticationChallenge(
                    challenge: DomainFixtures.challenge(), expiresAt: Date().addingTimeInterval(300))
                try await repos.passkeyAuthentications.saveAuthenticationChallenge(authentication)
                let winners = try await race(16) {
                    try await repos.passkeyAuthentications.consumeAuthenticationChallenge(
                        id: authentication.id, now: Date())
                }
                #expect(winners == 1, "round \(round): one winner per challenge")
            }
        }
    }

    @Test func anAssertionUpdatesTheCredentialAndCreatesTheSessionTogether() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 10, backupState: false)
            try await repos.addPasskey(passkey)
            let used = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 1).rounded(.down))
            let session = DomainFixtures.session(accountID: account.id, method: .passkey)
            let challengeID = try await challenge(repos)

            let outcome = try await Self.record(
                repos, challengeID: challengeID, credentialID: passkey.id, expectedSignCount: 10, newSignCount: 11,
                backupState: true, usedAt: used, session: session)
            #expect(outcome == .recorded)
            #expect(try await consumed(repos, challengeID))
            let stored = try #require(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id })
            #expect(stored.signCount == 11)
            #expect(stored.backupState)
            #expect(stored.lastUsedAt == used)
            #expect(
                try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: Date())?.session.method
                    == .passkey)
            // Its `sign-in` event, with the session and the passkey, in the same statement.
            let events = try await repos.events.events(accountID: account.id, before: nil, limit: 10)
            #expect(events.map(\.activity) == [.signIn(.passkey, credentialID: passkey.id)])
            #expect(events.first?.sessionID == session.id)
        }
    }

    @Test func aStaleCounterIsRefusedAndCreatesNoSession() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(
                accountID: account.id, signCount: 10, backupEligible: false, backupState: false)
            try await repos.addPasskey(passkey)
            let session = DomainFixtures.session(accountID: account.id, method: .passkey)
            let challengeID = try await challenge(repos)
            let outcome = try await Self.record(
                repos, challengeID: challengeID, credentialID: passkey.id, expectedSignCount: 9, newSignCount: 12,
                backupState: false, usedAt: Date(), session: session)
            #expect(outcome == .staleCounter)
            // The challenge is used up all the same: it reached verification.
            #expect(try await consumed(repos, challengeID))
            #expect(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id }?
                    .signCount == 10)
            #expect(try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: Date()) == nil)
            #expect(try await Self.signIns(repos) == 0)
        }
    }

    @Test func twoAssertionsVerifiedAgainstTheSameCounterCannotBothWin() async throws {
        try await withTestDatabase(maximumConnections: 8) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(
                accountID: account.id, signCount: 5, backupEligible: false, backupState: false)
            try await repos.addPasskey(passkey)
            var challengeIDs: [ChallengeID] = []
            for _ in 0..<8 { challengeIDs.append(try await challenge(repos)) }
            let outcomes = try await withThrowingTaskGroup(of: AssertionRecording.self) { group in
                for challengeID in challengeIDs {
                    group.addTask {
                        try await Self.record(
                            repos, challengeID: challengeID, credentialID: passkey.id, expectedSignCount: 5,
                            newSignCount: 6, backupState: false, usedAt: Date(),
                            session: DomainFixtures.session(accountID: account.id, method: .passkey))
                    }
                }
                return try await group.reduce(into: [AssertionRecording]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .recorded }.count == 1)
            #expect(outcomes.filter { $0 == .staleCounter }.count == 7)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 1)
            #expect(try await Self.signIns(repos) == 1)
        }
    }

    @Test func theStoredCounterKeepsTheMaximum() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 50)
            try await repos.addPasskey(passkey)
            // A synced passkey with a lower counter is accepted by the verifier (clone warning).
            let outcome = try await Self.record(
                repos, challengeID: try await challenge(repos), credentialID: passkey.id, expectedSignCount: 50,
                newSignCount: 3, backupState: true, usedAt: Date(),
                session: DomainFixtures.session(accountID: account.id, method: .passkey))
            #expect(outcome == .recorded)
            #expect(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id }?
                    .signCount == 50)
        }
    }

    @Test func aConsumedOrExpiredChallengeRecordsNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 4)
            try await repos.addPasskey(passkey)
            let used = try await challenge(repos)
            #expect(try await repos.passkeyAuthentications.consumeAuthenticationChallenge(id: used, now: Date()))
            let expired = try await challenge(repos, expiresIn: -1)
            for challengeID in [used, expired, ChallengeID()] {
                let outcome = try await Self.record(
                    repos, challengeID: challengeID, credentialID: passkey.id, expectedSignCount: 4, newSignCount: 5,
                    backupState: false, usedAt: Date(), session: DomainFixtures.session(accountID: account.id))
                #expect(outcome == .challengeUnavailable)
            }
            #expect(
                try await repos.passkeys.credentials(accountID: account.id).first { $0.id == passkey.id }?.signCount
                    == 4)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 0)
            #expect(try await Self.signIns(repos) == 0)
            #expect(try await !consumed(repos, expired))
        }
    }

    /// 16 finishes of one challenge, each for its own credential (so counters cannot decide), on
    /// 16 connections, 20 rounds: exactly one session each round; the others find the challenge used.
    @Test func oneChallengeRecordsOneAssertionUnderARealRace() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            var passkeys: [PasskeyCredential] = []
            for _ in 0..<16 {
                let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 0)
                try await repos.addPasskey(passkey)
                passkeys.append(passkey)
            }
            for round in 0..<20 {
                let challengeID = try await challenge(repos)
                let outcomes = try await withThrowingTaskGroup(of: AssertionRecording.self) { group in
                    for passkey in passkeys {
                        group.addTask {
                            try await Self.record(
                                repos, challengeID: challengeID, credentialID: passkey.id,
                                expectedSignCount: UInt32(round), newSignCount: UInt32(round), backupState: false,
                                usedAt: Date(),
                                session: DomainFixtures.session(accountID: account.id, method: .passkey))
                        }
                    }
                    return try await group.reduce(into: [AssertionRecording]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == .recorded }.count == 1, "round \(round)")
                #expect(outcomes.filter { $0 == .challengeUnavailable }.count == 15, "round \(round)")
                // Move every counter to the next round's value, so each round starts alike.
                _ = try await pool.withConnection { c async throws(PostgresError) in
                    try await c.execute("UPDATE passkey_credentials SET sign_count = \(round + 1)")
                }
            }
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 20)
            #expect(try await Self.signIns(repos) == 20)
        }
    }
}
