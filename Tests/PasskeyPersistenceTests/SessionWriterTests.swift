import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresSessionWriter`, for what it ends: one live session of its own account, or exactly the
/// live sessions a selection names.
@Suite struct SessionWriterTests {
    static func insert(_ repos: Repositories, _ sessions: [AuthenticationSession]) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            for session in sessions { try await tx.sessions.insert(session) }
        }
    }

    static func session(
        _ account: Account, _ method: AuthenticationMethod = .password, credentialID: CredentialID? = nil,
        createdAt: Date = Date(), lifetime: TimeInterval = 3600
    ) -> AuthenticationSession {
        AuthenticationSession(
            accountID: account.id, tokenDigest: (0..<32).map { _ in UInt8.random(in: 0...255) }, method: method,
            credentialID: credentialID, createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(lifetime))
    }

    @Test func revokeEndsOneLiveSessionOfItsOwnAccountOnly() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            let now = Date()
            let live = Self.session(account)
            let expired = Self.session(account, createdAt: now.addingTimeInterval(-120), lifetime: 60)
            try await Self.insert(repos, [live, expired])
            let revocations = try await repos.store.transaction { tx async throws(RepositoryError) in
                [
                    try await tx.sessions.revoke(live.id, of: stranger.id, at: now),
                    try await tx.sessions.revoke(expired.id, of: account.id, at: now),
                    try await tx.sessions.revoke(SessionID(), of: account.id, at: now),
                    try await tx.sessions.revoke(live.id, of: account.id, at: now),
                    try await tx.sessions.revoke(live.id, of: account.id, at: now),
                ]
            }
            #expect(revocations == [false, false, false, true, false])
            #expect(try await repos.sessions.activeSession(tokenDigest: live.tokenDigest, now: now) == nil)
        }
    }

    @Test func revokeSelectionsEndExactlyTheLiveSessionsTheyName() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let bystander = try await repos.passwordAccount()
            let now = Date()
            let (phone, laptop) = (DomainFixtures.credentialID(), DomainFixtures.credentialID())
            let current = Self.session(account)
            let otherPassword = Self.session(account)
            let expiredPassword = Self.session(account, createdAt: now.addingTimeInterval(-120), lifetime: 60)
            let byPhone = Self.session(account, .passkey, credentialID: phone)
            let byLaptop = Self.session(account, .passkey, credentialID: laptop)
            let byRecovery = Self.session(account, .recovery)
            let bystanders = Self.session(bystander)
            try await Self.insert(
                repos, [current, otherPassword, expiredPassword, byPhone, byLaptop, byRecovery, bystanders])
            func active() async throws -> Set<SessionID> {
                Set(try await repos.sessions.activeSessions(accountID: account.id, now: now).map(\.id))
            }

            let byPasskey = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.sessions.revoke(.signedIn(with: phone), of: account.id, except: nil, at: now)
            }
            #expect(byPasskey == 1)
            #expect(try await active() == [current.id, otherPassword.id, byLaptop.id, byRecovery.id])

            let byPassword = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.sessions.revoke(.password, of: account.id, except: current.id, at: now)
            }
            #expect(byPassword == 1)
            #expect(try await active() == [current.id, byLaptop.id, byRecovery.id])

            let allOthers = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.sessions.revoke(.all, of: account.id, except: current.id, at: now)
            }
            #expect(allOthers == 2)
            #expect(try await active() == [current.id])

            let all = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.sessions.revoke(.all, of: account.id, except: nil, at: now)
            }
            #expect(all == 1)
            #expect(try await active().isEmpty)
            #expect(
                try await repos.sessions.activeSessions(accountID: bystander.id, now: now).map(\.id) == [bystanders.id])
        }
    }

    @Test func lockLiveAnswersWhetherTheSessionIsStillLive() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let now = Date()
            let live = Self.session(account)
            let revoked = Self.session(account)
            let expired = Self.session(account, createdAt: now.addingTimeInterval(-120), lifetime: 60)
            try await Self.insert(repos, [live, revoked, expired])
            let answers = try await repos.store.transaction { tx async throws(RepositoryError) in
                _ = try await tx.sessions.revoke(revoked.id, of: account.id, at: now)
                return [
                    try await tx.sessions.lockLive(live.id, at: now),
                    try await tx.sessions.lockLive(revoked.id, at: now),
                    try await tx.sessions.lockLive(expired.id, at: now),
                    try await tx.sessions.lockLive(SessionID(), at: now),
                ]
            }
            #expect(answers == [true, false, false, false])
        }
    }

    /// `lockLive` holds the session until the change that asked commits: a revocation of it waits
    /// for that commit (and then ends it), so a change never commits after its session ended.
    @Test(.timeLimit(.minutes(5)))
    func aRevocationWaitsForTheChangeThatLockedItsSession() async throws {
        try await withTestDatabase(maximumConnections: 4) { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let session = Self.session(account)
            try await Self.insert(repos, [session])
            try await openConnections(3, of: pool)
            let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
            let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
            let change = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    #expect(try await tx.sessions.lockLive(session.id, at: Date()))
                    lockedSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in locked { break }
            let revocation = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.sessions.revoke(.all, of: account.id, except: nil, at: Date())
                }
            }
            #expect(try await repos.aStatementWaitsForALock())
            releaseSignal.yield()
            try await change.value
            #expect(try await revocation.value == 1)
        }
    }
}
