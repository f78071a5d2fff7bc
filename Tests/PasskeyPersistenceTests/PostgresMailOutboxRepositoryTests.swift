import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresMailOutboxRepository`, the sender's side of `mail_outbox`, call by call: which rows a
/// claim takes and in what order, the lease, and how each settlement leaves a row (the sender's
/// own behaviour over it is `MailOutboxSenderTests`'). A lease of 0 ends at once, so the tests
/// need no waiting.
@Suite struct PostgresMailOutboxRepositoryTests {
    /// One row's state.
    struct Row: Equatable {
        var attempts: Int
        var body: String?
        var lastError: String?
        var leased: Bool
        var sent: Bool
        var abandoned: Bool
        /// Seconds from the database's now to `next_attempt_at` (negative: due).
        var dueIn: Double
    }

    static func row(_ id: UUID, _ repos: Repositories) async throws -> Row {
        let row = try #require(
            try await repos.rows(
                """
                SELECT attempts, body, last_error, leased_until IS NOT NULL AS leased, sent_at IS NOT NULL AS sent,
                       abandoned_at IS NOT NULL AS abandoned,
                       extract(epoch FROM next_attempt_at - now())::float8 AS due_in
                FROM mail_outbox WHERE id = \(id)
                """
            ).first)
        return Row(
            attempts: try row.decode(column: "attempts"), body: try row.decode(column: "body"),
            lastError: try row.decode(column: "last_error"), leased: try row.decode(column: "leased"),
            sent: try row.decode(column: "sent"), abandoned: try row.decode(column: "abandoned"),
            dueIn: try row.decode(column: "due_in"))
    }

    /// Queues mails created `ages` seconds ago (so due since then), in one transaction.
    static func enqueue(ages: [TimeInterval], _ repos: Repositories, notAfter: Date? = nil) async throws
        -> [OutgoingMail]
    {
        let now = Date()
        let mails = ages.enumerated().map { index, age in
            OutgoingMail(
                id: UUID(), recipient: EmailAddress("user\(index)@example.org")!, subject: "Mail \(index)",
                body: "Body \(index)\n", createdAt: now.addingTimeInterval(-age), notAfter: notAfter)
        }
        try await repos.store.transaction { tx async throws(RepositoryError) in
            for mail in mails.shuffled() { try await tx.outbox.enqueue(mail) }
        }
        return mails
    }

    /// Security round 4, finding 4: a flood of notices made other users' codes expire unsent.
    /// Code mails (they have `not_after`) are claimed before notices, however long those waited.
    @Test func codeMailsAreClaimedBeforeNoticesThatWaitedLonger() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let notices = try await Self.enqueue(ages: [300, 200, 100], repos)
            let codes = try await Self.enqueue(ages: [10, 5], repos, notAfter: Date().addingTimeInterval(600))
            let first = try await outbox.claimDue(limit: 2, lease: 60).map(\.message.id)
            #expect(Set(first) == Set(codes.map(\.id)))
            let then = try await outbox.claimDue(limit: 1, lease: 60).map(\.message.id)
            #expect(then == [notices[0].id])
        }
    }

    /// Due rows only, the longest due first, never more than the limit; what a claim took is
    /// not due for the next claim, until everything is taken.
    @Test func aClaimTakesTheLongestDueFirstUpToItsLimit() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            #expect(try await outbox.claimDue(limit: 10, lease: 60).isEmpty)
            let expiry = DomainFixtures.now().addingTimeInterval(600)
            let mails = try await Self.enqueue(ages: [50, 10, 40, 20, 30], repos, notAfter: expiry)
            // Created in the future: not due yet.
            _ = try await Self.enqueue(ages: [-3_600], repos)
            // A limit of nothing claims nothing (it used to claim one).
            #expect(try await outbox.claimDue(limit: 0, lease: 60).isEmpty)
            #expect(try await outbox.claimDue(limit: -1, lease: 60).isEmpty)

            // Which rows, not in which order: the claim answers them as the UPDATE met them.
            let first = try await outbox.claimDue(limit: 2, lease: 60)
            #expect(Set(first.map(\.message.id)) == [mails[0].id, mails[2].id])
            let claimed = try #require(first.first { $0.message.id == mails[0].id })
            #expect(
                claimed.message
                    == MailMessage(
                        id: mails[0].id, recipient: mails[0].recipient, subject: "Mail 0", body: "Body 0\n"))
            #expect(abs(try #require(claimed.notAfter).timeIntervalSince(expiry)) < 0.000_001)
            #expect(claimed.attempts == 0)
            #expect(
                Set(try await outbox.claimDue(limit: 2, lease: 60).map(\.message.id)) == [mails[4].id, mails[3].id])
            #expect(try await outbox.claimDue(limit: 2, lease: 60).map(\.message.id) == [mails[1].id])
            #expect(try await outbox.claimDue(limit: 2, lease: 60).isEmpty)
        }
    }

    /// A lease hides a claimed mail from every claim until it ends (then it is taken again, as a
    /// crashed sender's is); `release` ends it at once without counting an attempt, and gives
    /// back nothing that was sent.
    @Test func aLeaseHidesAClaimedMailUntilItEndsOrIsReleased() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mails = try await Self.enqueue(ages: [30, 20, 10], repos)
            let ids = mails.map(\.id)
            #expect(Set(try await outbox.claimDue(limit: 10, lease: 90.5).map(\.message.id)) == Set(ids))
            let leaseLeft = try await repos.rows(
                "SELECT extract(epoch FROM leased_until - now())::float8 AS s FROM mail_outbox WHERE id = \(ids[0])")
            let seconds = try #require(try leaseLeft.first?.decode(Double.self, column: "s"))
            #expect(seconds > 80 && seconds <= 90.5)
            #expect(try await outbox.claimDue(limit: 10, lease: 60).isEmpty)

            try await outbox.markSent(id: ids[2])
            try await outbox.release(ids: [ids[0], ids[2]])
            try await outbox.release(ids: [])
            let released = try await outbox.claimDue(limit: 10, lease: 0)
            #expect(released.map(\.message.id) == [ids[0]])
            #expect(released.first?.attempts == 0)
            // A lease of 0 is over by the next statement: the mail is taken again.
            #expect(try await outbox.claimDue(limit: 10, lease: 60).map(\.message.id) == [ids[0]])
            #expect(try await Self.row(ids[0], repos).attempts == 0)
            #expect(try await Self.row(ids[2], repos).sent)
        }
    }

    /// Sent: the body is gone, the attempt counted, the lease over, and the mail is never due
    /// again, whatever comes after (a release, a late reschedule or abandon of it).
    @Test func aSentMailLosesItsBodyAndIsNeverDueAgain() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mail = try #require(try await Self.enqueue(ages: [5], repos).first)
            _ = try await outbox.claimDue(limit: 1, lease: 0)
            try await outbox.markSent(id: mail.id)
            try await outbox.release(ids: [mail.id])
            try await outbox.reschedule(id: mail.id, attempts: 7, lastError: "late", nextAttemptAt: Date())
            try await outbox.abandon(id: mail.id, attempts: 7, lastError: "late")
            var row = try await Self.row(mail.id, repos)
            #expect(row.dueIn < 0)
            row.dueIn = 0
            #expect(
                row
                    == Row(
                        attempts: 1, body: nil, lastError: nil, leased: false, sent: true, abandoned: false, dueIn: 0))
            #expect(try await outbox.claimDue(limit: 10, lease: 0).isEmpty)
            #expect(try await outbox.oldestDueAge() == nil)
        }
    }

    /// A transient failure: attempts and cause recorded, the body kept, the lease over, and the
    /// mail due at the time given (its back-off), not before; a cause longer than the column is
    /// cut to it.
    @Test func aRescheduledMailWaitsForItsNextAttempt() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mails = try await Self.enqueue(ages: [20, 10], repos)
            _ = try await outbox.claimDue(limit: 10, lease: 60)
            try await outbox.reschedule(
                id: mails[0].id, attempts: 1, lastError: "421 try later",
                nextAttemptAt: Date().addingTimeInterval(3_600))
            try await outbox.reschedule(
                id: mails[1].id, attempts: 3, lastError: String(repeating: "x", count: 600),
                nextAttemptAt: Date().addingTimeInterval(-1))

            let waiting = try await Self.row(mails[0].id, repos)
            #expect(waiting.attempts == 1 && waiting.lastError == "421 try later" && waiting.body == "Body 0\n")
            #expect(!waiting.leased && !waiting.sent && !waiting.abandoned)
            #expect(waiting.dueIn > 3_500 && waiting.dueIn <= 3_600)
            #expect(try await Self.row(mails[1].id, repos).lastError == String(repeating: "x", count: 500))
            // Only the one whose back-off is over is due, with its attempts so far.
            let due = try await outbox.claimDue(limit: 10, lease: 60)
            #expect(due.map(\.message.id) == [mails[1].id])
            #expect(due.first?.attempts == 3)
            let age = try #require(try await outbox.oldestDueAge())
            #expect(age >= 1 && age < 60)
        }
    }

    /// Given up: no body, the attempts and cause kept, never due again.
    @Test func anAbandonedMailLosesItsBodyAndIsNeverDueAgain() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mail = try #require(try await Self.enqueue(ages: [5], repos).first)
            _ = try await outbox.claimDue(limit: 1, lease: 60)
            try await outbox.abandon(id: mail.id, attempts: 8, lastError: "550 no such user")
            try await outbox.release(ids: [mail.id])
            try await outbox.reschedule(id: mail.id, attempts: 9, lastError: "late", nextAttemptAt: Date())
            var row = try await Self.row(mail.id, repos)
            row.dueIn = 0
            #expect(
                row
                    == Row(
                        attempts: 8, body: nil, lastError: "550 no such user", leased: false, sent: false,
                        abandoned: true, dueIn: 0))
            #expect(try await outbox.claimDue(limit: 10, lease: 0).isEmpty)
            #expect(try await outbox.oldestDueAge() == nil)
        }
    }

    /// The age is the oldest mail's still to send, due now, whether it is leased or not.
    @Test func theOldestDueAgeIsTheLongestWaitingMailsStillToSend() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mails = try await Self.enqueue(ages: [7_200, 600, -600], repos)
            let oldest = try #require(try await outbox.oldestDueAge())
            #expect(oldest >= 7_200 && oldest < 7_260)
            _ = try await outbox.claimDue(limit: 1, lease: 60)
            #expect(try #require(try await outbox.oldestDueAge()) >= 7_200)
            try await outbox.markSent(id: mails[0].id)
            let next = try #require(try await outbox.oldestDueAge())
            #expect(next >= 600 && next < 660)
            try await outbox.abandon(id: mails[1].id, attempts: 1, lastError: "550")
            #expect(try await outbox.oldestDueAge() == nil)
        }
    }

    /// A row another transaction holds locked is skipped, not waited for (`SKIP LOCKED`); once
    /// free it is claimed. Concurrent claims never share a mail.
    @Test(.timeLimit(.minutes(5)))
    func claimsSkipLockedRowsAndNeverShareAMail() async throws {
        try await withTestDatabase(maximumConnections: 6) { _, pool in
            let repos = Repositories(pool: pool)
            let outbox = PostgresMailOutboxRepository(pool: pool)
            let mails = try await Self.enqueue(ages: [20, 10], repos)
            let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
            let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await pool.withTransaction { connection async throws(PostgresError) in
                    try await connection.query("SELECT id FROM mail_outbox WHERE id = \(mails[0].id) FOR UPDATE")
                    lockedSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in locked { break }
            #expect(try await outbox.claimDue(limit: 10, lease: 60).map(\.message.id) == [mails[1].id])
            releaseSignal.yield()
            try await holder.value
            #expect(try await outbox.claimDue(limit: 10, lease: 60).map(\.message.id) == [mails[0].id])

            let many = try await Self.enqueue(ages: (0..<24).map { Double($0 + 1) }, repos)
            try await openConnections(6, of: pool)
            let claims = try await concurrently(Array(0..<6)) { _ in
                try await outbox.claimDue(limit: 5, lease: 60).map(\.message.id)
            }
            let claimed = claims.flatMap { $0 }
            #expect(Set(claimed).count == claimed.count, "a mail was claimed twice")
            let rest = try await outbox.claimDue(limit: 30, lease: 60).map(\.message.id)
            #expect(Set(claimed + rest) == Set(many.map(\.id)))
            #expect(claimed.count + rest.count == many.count)
        }
    }
}
