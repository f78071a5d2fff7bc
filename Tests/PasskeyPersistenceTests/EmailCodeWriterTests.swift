import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresEmailCodeWriter`, for what it stores and finds: digests only, the live code of a
/// purpose, tries, and the codes sent to a recipient.
@Suite struct EmailCodeWriterTests {
    static func draft(_ purpose: EmailCodePurpose, createdAt: Date, lifetime: TimeInterval = 600) -> EmailCodeDraft {
        EmailCodeDraft(
            id: UUID(), purpose: purpose, digest: (0..<32).map { _ in UInt8.random(in: 0...255) },
            createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(lifetime))
    }

    static func insert(
        _ repos: Repositories, _ drafts: [EmailCodeDraft], of accountID: AccountID, to recipient: String
    ) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            for draft in drafts {
                try await tx.emailCodes.insert(draft, of: accountID, sentTo: EmailAddress(recipient)!)
            }
        }
    }

    static func lockLive(_ repos: Repositories, _ purpose: EmailCodePurpose, of accountID: AccountID, now: Date)
        async throws -> LockedEmailCode?
    {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            try await tx.emailCodes.lockLive(purpose, of: accountID, now: now)
        }
    }

    @Test func sendsCountTheCodesToTheRecipientSinceAGivenTime() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            let now = DomainFixtures.now()
            try await Self.insert(
                repos,
                [
                    Self.draft(.verify, createdAt: now.addingTimeInterval(-4000)),
                    Self.draft(.verify, createdAt: now.addingTimeInterval(-30)),
                    Self.draft(.signIn, createdAt: now.addingTimeInterval(-10)),
                ], of: account.id, to: "Mika@Example.com")
            // Counted by recipient, whichever account and purpose.
            try await Self.insert(
                repos, [Self.draft(.change, createdAt: now.addingTimeInterval(-5))], of: other.id,
                to: "mika@example.com")
            try await Self.insert(
                repos, [Self.draft(.verify, createdAt: now.addingTimeInterval(-5))], of: other.id,
                to: "else@example.com")
            let (sent, none) = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.emailCodes.lockRecipient("mika@example.com")
                return (
                    try await tx.emailCodes.sends(to: "mika@example.com", since: now.addingTimeInterval(-3600)),
                    try await tx.emailCodes.sends(to: "nobody@example.com", since: now.addingTimeInterval(-3600))
                )
            }
            #expect(sent.count == 3)
            #expect(sent.oldest == now.addingTimeInterval(-30))
            #expect(none.count == 0)
            #expect(none.oldest == nil)
        }
    }

    @Test func lockLiveFindsTheNewestLiveCodeOfThePurpose() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "old@example.com")
            let now = DomainFixtures.now()
            let older = Self.draft(.verify, createdAt: now.addingTimeInterval(-20))
            let newer = Self.draft(.verify, createdAt: now.addingTimeInterval(-10))
            let change = Self.draft(.change, createdAt: now.addingTimeInterval(-10))
            try await Self.insert(repos, [older, newer], of: account.id, to: "old@example.com")
            try await Self.insert(repos, [change], of: account.id, to: "New@Example.com")

            #expect(
                try await Self.lockLive(repos, .verify, of: account.id, now: now)
                    == LockedEmailCode(id: newer.id, digest: newer.digest, email: "old@example.com", failedTries: 0))
            #expect(try await Self.lockLive(repos, .change, of: account.id, now: now)?.email == "New@Example.com")
            #expect(try await Self.lockLive(repos, .signIn, of: account.id, now: now) == nil)
            // Expired: not live.
            #expect(try await Self.lockLive(repos, .verify, of: account.id, now: now.addingTimeInterval(600)) == nil)

            // A wrong try is counted; one that voids it ends it (the older code is then the live one).
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.emailCodes.countWrongTry(newer.id, void: false, at: now)
            }
            #expect(try await Self.lockLive(repos, .verify, of: account.id, now: now)?.failedTries == 1)
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.emailCodes.countWrongTry(newer.id, void: true, at: now)
            }
            #expect(try await Self.lockLive(repos, .verify, of: account.id, now: now)?.id == older.id)
            #expect(
                try await repos.count("SELECT count(*) FROM email_codes WHERE id = \(newer.id) AND failed_tries = 2")
                    == 1)

            // Voiding the unused codes of a purpose leaves the other purposes; a used code is not live.
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.emailCodes.voidUnused(.verify, of: account.id, at: now)
                try await tx.emailCodes.markUsed(change.id, at: now)
            }
            #expect(try await Self.lockLive(repos, .verify, of: account.id, now: now) == nil)
            #expect(try await Self.lockLive(repos, .change, of: account.id, now: now) == nil)
            #expect(try await repos.count("SELECT count(*) FROM email_codes WHERE voided_at IS NOT NULL") == 2)
            #expect(try await repos.count("SELECT count(*) FROM email_codes WHERE used_at IS NOT NULL") == 1)
        }
    }

    @Test func voidUnusedVoidsOnlyThatAccountsCodes() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let other = try await repos.passwordAccount()
            let now = DomainFixtures.now()
            let mine = Self.draft(.verify, createdAt: now)
            let theirs = Self.draft(.verify, createdAt: now)
            try await Self.insert(repos, [mine], of: account.id, to: "a@example.com")
            try await Self.insert(repos, [theirs], of: other.id, to: "b@example.com")
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.emailCodes.voidUnused(.verify, of: account.id, at: now)
            }
            #expect(try await Self.lockLive(repos, .verify, of: account.id, now: now) == nil)
            #expect(try await Self.lockLive(repos, .verify, of: other.id, now: now)?.id == theirs.id)
        }
    }

    @Test func latestUsedFindsTheCodeOfThePurposeUsedLastSinceAGivenTime() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let now = DomainFixtures.now()
            let (earlier, later, unused) = (
                Self.draft(.verify, createdAt: now.addingTimeInterval(-60)),
                Self.draft(.verify, createdAt: now.addingTimeInterval(-50)),
                Self.draft(.verify, createdAt: now.addingTimeInterval(-40))
            )
            try await Self.insert(repos, [earlier, later, unused], of: account.id, to: "mika@example.com")
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.emailCodes.markUsed(later.id, at: now.addingTimeInterval(-20))
                try await tx.emailCodes.markUsed(earlier.id, at: now.addingTimeInterval(-5))
            }
            func latest(_ purpose: EmailCodePurpose, since: TimeInterval) async throws -> UUID? {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.emailCodes.latestUsed(purpose, of: account.id, since: now.addingTimeInterval(since))
                }?.id
            }
            #expect(try await latest(.verify, since: -30) == earlier.id)
            #expect(try await latest(.verify, since: -10) == earlier.id)
            #expect(try await latest(.verify, since: -1) == nil)
            #expect(try await latest(.signIn, since: -30) == nil)
        }
    }
}
