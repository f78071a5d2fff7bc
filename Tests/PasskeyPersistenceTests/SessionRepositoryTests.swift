import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct SessionRepositoryTests {
    @Test func aSessionIsActiveUntilRevokedOrExpired() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let now = Date()
            let session = DomainFixtures.session(accountID: account.id, createdAt: now, lifetime: 60)
            try await repos.sessions.createSession(session)

            let active = try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: now)
            #expect(active?.account == account)
            #expect(active?.session.method == .password)
            #expect(active?.session.id == session.id)
            #expect(try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: now + 61) == nil)
            #expect(
                try await repos.sessions.activeSession(tokenDigest: Array(repeating: 0, count: 32), now: now) == nil)

            #expect(try await repos.sessions.revokeSession(id: session.id, at: now))
            #expect(try await !repos.sessions.revokeSession(id: session.id, at: now))
            #expect(try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: now) == nil)
        }
    }

    @Test func anAssertionUpdatesTheCredentialAndCreatesTheSessionTogether() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 10, backupState: false)
            try await repos.passkeys.addCredential(passkey)
            let used = Date(timeIntervalSince1970: 1_795_000_100)
            let session = DomainFixtures.session(accountID: account.id, method: .passkey)

            let outcome = try await repos.sessions.recordAssertion(
                credentialID: passkey.id, expectedSignCount: 10, newSignCount: 11, backupState: true, usedAt: used,
                session: session)
            #expect(outcome == .recorded)
            let stored = try #require(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id })
            #expect(stored.signCount == 11)
            #expect(stored.backupState)
            #expect(stored.lastUsedAt == used)
            #expect(
                try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: Date())?.session.method
                    == .passkey)
        }
    }

    @Test func aStaleCounterIsRefusedAndCreatesNoSession() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(
                accountID: account.id, signCount: 10, backupEligible: false, backupState: false)
            try await repos.passkeys.addCredential(passkey)
            let session = DomainFixtures.session(accountID: account.id, method: .passkey)
            let outcome = try await repos.sessions.recordAssertion(
                credentialID: passkey.id, expectedSignCount: 9, newSignCount: 12, backupState: false, usedAt: Date(),
                session: session)
            #expect(outcome == .staleCounter)
            #expect(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id }?
                    .signCount == 10)
            #expect(try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: Date()) == nil)
        }
    }

    @Test func twoAssertionsVerifiedAgainstTheSameCounterCannotBothWin() async throws {
        try await withTestDatabase(maximumConnections: 8) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(
                accountID: account.id, signCount: 5, backupEligible: false, backupState: false)
            try await repos.passkeys.addCredential(passkey)
            let outcomes = try await withThrowingTaskGroup(of: AssertionRecording.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await repos.sessions.recordAssertion(
                            credentialID: passkey.id, expectedSignCount: 5, newSignCount: 6, backupState: false,
                            usedAt: Date(), session: DomainFixtures.session(accountID: account.id, method: .passkey))
                    }
                }
                return try await group.reduce(into: [AssertionRecording]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .recorded }.count == 1)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 1)
        }
    }

    @Test func theStoredCounterKeepsTheMaximum() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id, signCount: 50)
            try await repos.passkeys.addCredential(passkey)
            // A synced passkey with a lower counter is accepted by the verifier (clone warning).
            let outcome = try await repos.sessions.recordAssertion(
                credentialID: passkey.id, expectedSignCount: 50, newSignCount: 3, backupState: true, usedAt: Date(),
                session: DomainFixtures.session(accountID: account.id, method: .passkey))
            #expect(outcome == .recorded)
            #expect(
                try await repos.passkeys.credentials(accountID: passkey.accountID).first { $0.id == passkey.id }?
                    .signCount == 50)
        }
    }
}
