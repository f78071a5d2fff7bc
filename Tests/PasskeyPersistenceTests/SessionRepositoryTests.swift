import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
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

            let revocations = try await repos.store.transaction { tx async throws(RepositoryError) in
                [
                    try await tx.sessions.revoke(session.id, of: account.id, at: now),
                    try await tx.sessions.revoke(session.id, of: account.id, at: now),
                ]
            }
            #expect(revocations == [true, false])
            #expect(try await repos.sessions.activeSession(tokenDigest: session.tokenDigest, now: now) == nil)
        }
    }
}
