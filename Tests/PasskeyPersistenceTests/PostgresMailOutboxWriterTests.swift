import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresMailOutboxWriter` (`tx.outbox.enqueue`), for what it stores: the mail as rendered,
/// due from its creation, untried and unleased; seen by the sender only once the transaction
/// that queued it commits (`PostgresUnitOfWorkTests` has the rolled-back and committed cases);
/// and refused, with the change it came with, when the table refuses it.
@Suite struct PostgresMailOutboxWriterTests {
    static func mail(subject: String = "Your code", notAfter: Date? = nil) -> OutgoingMail {
        OutgoingMail(
            id: UUID(), recipient: EmailAddress("hanako@example.com")!, subject: subject, body: "123456\n",
            createdAt: DomainFixtures.now().addingTimeInterval(-1), notAfter: notAfter)
    }

    static func enqueue(_ mails: [OutgoingMail], with event: AccountEvent? = nil, _ repos: Repositories)
        async throws
    {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            if let event { try await tx.events.record(event) }
            for mail in mails { try await tx.outbox.enqueue(mail) }
        }
    }

    @Test func aQueuedMailIsStoredAsRenderedDueFromItsCreationUntriedAndUnleased() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let expiry = DomainFixtures.now().addingTimeInterval(600)
            let code = Self.mail(notAfter: expiry)
            let notice = OutgoingMail(
                id: UUID(), recipient: EmailAddress("Jürgen.Müller@example.com")!, subject: "Neuer Passkey 🔑",
                body: "Hallo Jürgen,\n\nein Passkey wurde hinzugefügt.\n", createdAt: DomainFixtures.now())
            try await Self.enqueue([code, notice], repos)

            for mail in [code, notice] {
                let row = try #require(
                    try await repos.rows(
                        """
                        SELECT recipient, subject, body, created_at, not_after, attempts,
                               next_attempt_at = created_at AS due_at_creation, leased_until IS NULL AS unleased,
                               sent_at IS NULL AND abandoned_at IS NULL AND last_error IS NULL AS untouched
                        FROM mail_outbox WHERE id = \(mail.id)
                        """
                    ).first)
                #expect(try row.decode(String.self, column: "recipient") == mail.recipient.value)
                #expect(try row.decode(String.self, column: "subject") == mail.subject)
                #expect(try row.decode(String?.self, column: "body") == mail.body)
                let createdAt = try row.decode(Date.self, column: "created_at")
                #expect(abs(createdAt.timeIntervalSince(mail.createdAt)) < 0.000_001)
                let notAfter = try row.decode(Date?.self, column: "not_after")
                #expect((notAfter == nil) == (mail.notAfter == nil))
                if let notAfter, let expected = mail.notAfter {
                    #expect(abs(notAfter.timeIntervalSince(expected)) < 0.000_001)
                }
                #expect(try row.decode(Int.self, column: "attempts") == 0)
                #expect(try row.decode(Bool.self, column: "due_at_creation"))
                #expect(try row.decode(Bool.self, column: "unleased"))
                #expect(try row.decode(Bool.self, column: "untouched"))
            }
        }
    }

    /// The sender's claim neither sees nor waits for a mail whose transaction is still open;
    /// after the commit it is claimed.
    @Test(.timeLimit(.minutes(5)))
    func aMailIsDueForTheSenderOnlyOnceItsTransactionCommits() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mail = Self.mail()
            let (queued, queuedSignal) = AsyncStream.makeStream(of: Void.self)
            let (commit, commitSignal) = AsyncStream.makeStream(of: Void.self)
            let change = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.outbox.enqueue(mail)
                    queuedSignal.yield()
                    for await _ in commit { break }
                }
            }
            for await _ in queued { break }
            #expect(try await outbox.claimDue(limit: 10, lease: 60).isEmpty)
            #expect(try await outbox.oldestDueAge() == nil)
            #expect(try await repos.count("SELECT count(*) FROM mail_outbox") == 0)
            commitSignal.yield()
            try await change.value
            #expect(try await outbox.claimDue(limit: 10, lease: 60).map(\.message.id) == [mail.id])
        }
    }

    /// A mail queued twice (its ID) or one the table refuses (a subject past 200 characters) is a
    /// conflict naming the constraint, and the change it was queued with is not stored either.
    @Test func aMailTheTableRefusesIsAConflictAndTakesItsChangeWithIt() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let queued = Self.mail()
            try await Self.enqueue([queued], repos)
            let cases: [(OutgoingMail, RepositoryError)] = [
                (queued, .conflict(.other("mail_outbox_pkey"))),
                (
                    Self.mail(subject: String(repeating: "s", count: 201)),
                    .conflict(.other("mail_outbox_subject_check"))
                ),
            ]
            for (mail, refusal) in cases {
                let event = AccountEvent(
                    id: AccountEventID(), accountID: account.id, activity: .emailChanged, occurredAt: Date(),
                    clientAddress: "192.0.2.1", userAgent: nil, sessionID: nil)
                await #expect(throws: refusal) { try await Self.enqueue([Self.mail(), mail], with: event, repos) }
                #expect(try await repos.count("SELECT count(*) FROM account_events WHERE id = \(event.id.uuid)") == 0)
            }
            #expect(try await repos.count("SELECT count(*) FROM mail_outbox") == 1)
        }
    }
}
