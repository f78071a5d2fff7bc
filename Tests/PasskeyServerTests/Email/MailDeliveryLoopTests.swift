import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

/// `serve`'s sender loop as the composition root builds it from `MAIL_URL`: the metrics it
/// counts, and its log, which never carries the SMTP password.
@Suite struct MailDeliveryLoopTests {
    private func settings(_ url: String) throws -> MailSettings {
        try #require(
            try ServerConfiguration.load(from: [
                "DATABASE_URL": "host=/tmp port=5432 user=postgres dbname=postgres", "MAIL_URL": url,
                "MAIL_MAX_ATTEMPTS": "2", "MAIL_RETRY_BASE_MILLISECONDS": "10", "MAIL_POLL_INTERVAL_MILLISECONDS": "20",
            ]).mail)
    }

    private func loop(_ settings: MailSettings, pool: PostgresConnectionPool, logs: LogCapture, metrics: MailMetrics)
        -> MailDeliveryLoop
    {
        let outbox = PostgresMailOutboxRepository(pool: pool)
        return MailDeliveryLoop(
            sender: MailOutboxSender(
                outbox: outbox, transport: CompositionRoot.mailTransport(settings), clock: SystemClock(),
                random: SequentialRandomGenerator(), maxAttempts: settings.maxAttempts, batchSize: 5,
                lease: settings.lease, backoff: MailRetryBackoff(base: settings.retryBase)),
            outbox: outbox, metrics: metrics, logger: Logger(level: .debug, sink: logs.sink),
            pollInterval: settings.pollInterval, batchSize: 5)
    }

    private func enqueue(_ recipient: String, pool: PostgresConnectionPool) async throws -> UUID {
        let mail = OutgoingMail(
            id: UUID(), recipient: EmailAddress(recipient)!, subject: "Your code", body: "Code:\n123456\n",
            createdAt: Date().addingTimeInterval(-1))
        try await PostgresUnitOfWork(pool: pool).transaction { tx async throws(RepositoryError) in
            try await tx.outbox.enqueue(mail)
        }
        return mail.id
    }

    @Test func credentialsNeverReachTheLogAndAbandonedMailsAreCounted() async throws {
        let smtp = try await TestSMTPServer.start()
        await smtp.destroy()
        try await withTestDatabase { _, pool in
            let settings = try settings("smtp://mailer:s3cret-pa55@127.0.0.1:\(smtp.port)")
            #expect(!settings.destination.contains("s3cret"))
            _ = try await enqueue("ann@example.org", pool: pool)
            let logs = LogCapture()
            let metrics = MailMetrics()
            let task = Task { await loop(settings, pool: pool, logs: logs, metrics: metrics).run() }
            let deadline = ContinuousClock.now + .seconds(20)
            while !metrics.render().contains("passkey_mail_abandoned_total 1"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            task.cancel()
            await task.value
            let text = metrics.render()
            #expect(text.contains("passkey_mail_queued_total 1"))
            #expect(text.contains("passkey_mail_retried_total 1"))
            #expect(text.contains("passkey_mail_abandoned_total 1"))
            #expect(logs.text.contains("outcome=abandoned"))
            #expect(logs.text.contains("level=error"))
            #expect(!logs.text.contains("s3cret-pa55"))
            #expect(!logs.text.contains("123456"))
        }
    }

    @Test func aFileURLWritesTheMailAndCountsIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withTestDatabase { _, pool in
            let settings = try settings("file://\(folder.path)")
            let id = try await enqueue("bob@example.org", pool: pool)
            let metrics = MailMetrics()
            let task = Task { await loop(settings, pool: pool, logs: LogCapture(), metrics: metrics).run() }
            let file = folder.appendingPathComponent("\(id.uuidString.lowercased()).eml")
            let deadline = ContinuousClock.now + .seconds(20)
            while !metrics.render().contains("passkey_mail_sent_total 1"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            task.cancel()
            await task.value
            #expect(FileManager.default.fileExists(atPath: file.path))
            #expect(metrics.render().contains("passkey_mail_oldest_due_age_seconds"))
        }
    }
}
