import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresTokenSessionRepository`: a live session by its token's digest or by its ID, with the
/// account's stage read in the same statement; nothing for an ended, expired or foreign session,
/// or (by ID) for a session whose JWT's key was revoked.
@Suite struct PostgresTokenSessionRepositoryTests {
    @Test func aLiveSessionIsFoundByDigestAndByIDWithTheStageNow() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let digest = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let now = DomainFixtures.now()
            let session = AuthenticationSession(
                accountID: account.id, tokenDigest: digest, method: .passkey, createdAt: now,
                expiresAt: now.addingTimeInterval(3600), userVerified: true)
            try await repos.sessions.createSession(session)
            let sessions = PostgresTokenSessionRepository(pool: pool)
            let keyID = SigningKeyID(random: Array(repeating: 5, count: 16))
            let byDigest = try #require(try await sessions.liveSession(tokenDigest: digest, now: now))
            #expect(byDigest.sessionID == session.id)
            #expect(byDigest.accountID == account.id)
            #expect(byDigest.method == .passkey)
            #expect(byDigest.userVerified)
            #expect(byDigest.createdAt == now)
            #expect(byDigest.expiresAt == session.expiresAt)
            #expect(byDigest.stage == .passwordOnly)
            // A passkey added: the stage read next says so.
            try await repos.addPasskey(DomainFixtures.passkey(accountID: account.id))
            let byID = try await sessions.liveSession(session.id, of: account.id, signedWith: keyID, now: now)
            #expect(byID?.stage == .passwordAndPasskey)
            #expect(byID?.sessionID == session.id)
        }
    }

    @Test func anEndedExpiredForeignOrRevokedKeysSessionIsNotFound() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let stranger = try await repos.passwordAccount()
            let now = DomainFixtures.now()
            let live = DomainFixtures.session(accountID: account.id, createdAt: now)
            let ended = DomainFixtures.session(accountID: account.id, createdAt: now)
            try await repos.sessions.createSession(live)
            try await repos.sessions.createSession(ended)
            try await repos.store.transaction { tx async throws(RepositoryError) in
                _ = try await tx.sessions.revoke(ended.id, of: account.id, at: now)
            }
            let sessions = PostgresTokenSessionRepository(pool: pool)
            let key = PostgresSigningKeyWriterTests.key()
            try await PostgresSigningKeyWriterTests.insert([key], repos)
            #expect(try await sessions.liveSession(tokenDigest: ended.tokenDigest, now: now) == nil)
            #expect(try await sessions.liveSession(tokenDigest: Array(repeating: 0, count: 32), now: now) == nil)
            #expect(
                try await sessions.liveSession(tokenDigest: live.tokenDigest, now: live.expiresAt) == nil, "expired")
            #expect(try await sessions.liveSession(live.id, of: stranger.id, signedWith: key.id, now: now) == nil)
            #expect(try await sessions.liveSession(ended.id, of: account.id, signedWith: key.id, now: now) == nil)
            #expect(try await sessions.liveSession(live.id, of: account.id, signedWith: key.id, now: now) != nil)
            // The key revoked: the same lookup finds nothing, while the session itself lives on.
            _ = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.signingKeys.revoke(key.id, at: now)
            }
            #expect(try await sessions.liveSession(live.id, of: account.id, signedWith: key.id, now: now) == nil)
            #expect(try await sessions.liveSession(tokenDigest: live.tokenDigest, now: now) != nil)
        }
    }
}
