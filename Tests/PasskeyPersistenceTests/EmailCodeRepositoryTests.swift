import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresEmailCodeRepository` on a real PostgreSQL: the races the row lock and the advisory
/// lock decide.
@Suite struct EmailCodeRepositoryTests {
    static func draft(_ purpose: EmailCodePurpose = .verify, now: Date = Date()) -> EmailCodeDraft {
        EmailCodeDraft(
            id: UUID(), purpose: purpose, digest: (0..<32).map { _ in UInt8.random(in: 0...255) }, createdAt: now,
            expiresAt: now.addingTimeInterval(600))
    }

    static func mail(_ id: UUID, to email: EmailAddress) -> OutgoingMail {
        OutgoingMail(id: id, recipient: email, subject: "code", body: "123456\n", createdAt: Date())
    }

    @Test func ofConcurrentConfirmationsOfOneCodeExactlyOneWins() async throws {
        try await withTestDatabase(maximumConnections: 12) { _, pool in
            let repos = Repositories(pool: pool)
            let codes = PostgresEmailCodeRepository(pool: pool)
            let account = try await repos.passwordAccount()
            let draft = Self.draft()
            let issued = try await codes.issueVerificationCode(accountID: account.id, draft: draft, sendsPerHour: 5) {
                recipient, _ in
                Self.mail(draft.id, to: recipient)
            }
            #expect(issued == .issued)
            try await openConnections(10, of: pool)
            let outcomes = try await withThrowingTaskGroup(of: EmailCodeConfirmation.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await codes.confirmVerification(accountID: account.id, now: Date(), maximumTries: 5) {
                            $0 == draft.id && $1 == draft.digest
                        }
                    }
                }
                return try await group.reduce(into: [EmailCodeConfirmation]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .confirmed }.count == 1)
            #expect(outcomes.filter { $0 == .alreadyVerified }.count == 9)
        }
    }

    @Test func theSendingLimitHoldsForConcurrentIssuesFromTwoPools() async throws {
        try await withTestDatabase(maximumConnections: 6) { database, pool in
            let other = database.makePool(maximumConnections: 6)
            defer { other.close() }
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            try await openConnections(5, of: pool)
            try await openConnections(5, of: other)
            let outcomes = try await withThrowingTaskGroup(of: EmailCodeIssue.self) { group in
                for index in 0..<10 {
                    let codes = PostgresEmailCodeRepository(pool: index.isMultiple(of: 2) ? pool : other)
                    group.addTask {
                        let draft = Self.draft()
                        return try await codes.issueVerificationCode(
                            accountID: account.id, draft: draft, sendsPerHour: 3
                        ) { recipient, _ in Self.mail(draft.id, to: recipient) }
                    }
                }
                return try await group.reduce(into: [EmailCodeIssue]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .issued }.count == 3)
            #expect(outcomes.filter { if case .limited = $0 { true } else { false } }.count == 7)
            #expect(try await repos.count("SELECT count(*) FROM email_codes") == 3)
            #expect(try await repos.count("SELECT count(*) FROM mail_outbox") == 3)
            // Of the three, only the newest is live: each voided the one before it.
            #expect(try await repos.count("SELECT count(*) FROM email_codes WHERE voided_at IS NULL") == 1)
        }
    }

    @Test func aSignInCodeRequestForAnUnknownAddressWritesNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let codes = PostgresEmailCodeRepository(pool: pool)
            let known = try await repos.passwordAccount(email: "known@example.com")
            _ = known
            for address in ["nobody@example.com", "Known@Example.com"] {
                let email = try #require(EmailAddress(address))
                let draft = Self.draft(.signIn)
                let mails = Dictionary(
                    uniqueKeysWithValues: MailLanguage.allCases.map { ($0, Self.mail(draft.id, to: email)) })
                try await codes.issueSignInCode(email: email, draft: draft, sendsPerHour: 5, mails: mails)
            }
            #expect(try await repos.count("SELECT count(*) FROM email_codes") == 1)
            #expect(
                try await repos.count("SELECT count(*) FROM mail_outbox WHERE recipient = 'known@example.com'") == 1)
        }
    }
}
