import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyMail
import PasskeyPersistence
import PasskeyTestSupport

/// Queuing rows the way the flows do, and reading them back, for the sender's tests.
enum MailFixtures {
    static let from = EmailAddress("no-reply@example.com")!

    static func mail(
        to recipient: String, subject: String = "Your code", body: String = "Your code:\n123456\n",
        notAfter: Date? = nil
    ) -> OutgoingMail {
        OutgoingMail(
            id: UUID(), recipient: EmailAddress(recipient)!, subject: subject, body: body,
            createdAt: Date().addingTimeInterval(-1), notAfter: notAfter)
    }

    static func enqueue(_ mails: [OutgoingMail], pool: PostgresConnectionPool) async throws {
        try await PostgresUnitOfWork(pool: pool).transaction { tx async throws(RepositoryError) in
            for mail in mails { try await tx.outbox.enqueue(mail) }
        }
    }

    struct Row: Sendable {
        var attempts: Int
        var body: String?
        var sentAt: Date?
        var abandonedAt: Date?
        var lastError: String?
    }

    static func row(_ id: UUID, pool: PostgresConnectionPool) async throws -> Row? {
        try await pool.withConnection { connection async throws(PostgresError) in
            let result = try await connection.query(
                "SELECT attempts, body, sent_at, abandoned_at, last_error FROM mail_outbox WHERE id = \(id)")
            guard let row = result.first else { return nil }
            return Row(
                attempts: try row.decode(column: "attempts"), body: try row.decode(column: "body"),
                sentAt: try row.decode(column: "sent_at"), abandonedAt: try row.decode(column: "abandoned_at"),
                lastError: try row.decode(column: "last_error"))
        }
    }

    static func sender(
        pool: PostgresConnectionPool, transport: any MailTransport, maxAttempts: Int = 8, lease: TimeInterval = 60,
        backoffBase: TimeInterval = 0.05
    ) -> MailOutboxSender {
        sender(
            outbox: PostgresMailOutboxRepository(pool: pool), transport: transport, maxAttempts: maxAttempts,
            lease: lease, backoffBase: backoffBase)
    }

    /// The same sender on an outbox of the test's own (one that fails at first, say).
    static func sender(
        outbox: any MailOutboxRepository, transport: any MailTransport, clock: any WallClock = SystemClock(),
        maxAttempts: Int = 8, lease: TimeInterval = 60, backoffBase: TimeInterval = 0.05,
        markSentRetryPause: Duration = .milliseconds(250)
    ) -> MailOutboxSender {
        MailOutboxSender(
            outbox: outbox, transport: transport, clock: clock,
            random: SequentialRandomGenerator(), maxAttempts: maxAttempts, batchSize: 5, lease: lease,
            backoff: MailRetryBackoff(base: backoffBase, maximum: backoffBase * 4),
            markSentRetryPause: markSentRetryPause)
    }

    static func smtp(_ server: TestSMTPServer, username: String? = nil, password: String? = nil) -> SMTPMailTransport {
        var configuration = SMTPMailTransport.Configuration(
            host: "127.0.0.1", port: server.port, security: .plainLoopback, username: username, password: password,
            from: from)
        configuration.connectTimeout = 2
        configuration.transferTimeout = 10
        return SMTPMailTransport(configuration: configuration)
    }

    /// Runs passes until `done` holds or `timeout` passes; returns every outcome seen.
    @discardableResult
    static func drain(
        _ sender: MailOutboxSender, timeout: Duration = .seconds(20), until done: ([MailSendingOutcome]) -> Bool
    ) async throws -> [MailSendingOutcome] {
        let deadline = ContinuousClock.now + timeout
        var outcomes: [MailSendingOutcome] = []
        while ContinuousClock.now < deadline {
            outcomes += try await sender.runOnce().outcomes
            if done(outcomes) { return outcomes }
            try await Task.sleep(for: .milliseconds(20))
        }
        return outcomes
    }
}

extension MailSendingOutcome {
    var isSent: Bool { if case .sent = self { true } else { false } }
    var isAbandoned: Bool { if case .abandoned = self { true } else { false } }
    var isDropped: Bool { if case .dropped = self { true } else { false } }
}
