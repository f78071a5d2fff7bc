package import Foundation

/// The background sender (spec v3, "Delivery"): one pass claims due mails under a lease, sends
/// each outside any transaction, and settles it: sent (body deleted), dropped (its code expired:
/// abandoned, never sent late), retried later with backoff, or abandoned after `maxAttempts`.
/// `serve` runs a pass every poll interval in every instance; `FOR UPDATE SKIP LOCKED` and the
/// lease make each mail go to one sender at a time.
package struct MailOutboxSender: Sendable {
    let outbox: any MailOutboxRepository
    let transport: any MailTransport
    let clock: any WallClock
    let random: any RandomGenerator
    let maxAttempts: Int
    let batchSize: Int
    let lease: TimeInterval
    let backoff: MailRetryBackoff
    /// The first pause before asking again to record a delivered mail as sent, when the outbox
    /// was unavailable (doubling up to 2 s); tests pass zero.
    let markSentRetryPause: Duration

    package init(
        outbox: any MailOutboxRepository, transport: any MailTransport, clock: any WallClock,
        random: any RandomGenerator, maxAttempts: Int, batchSize: Int = 20, lease: TimeInterval = 120,
        backoff: MailRetryBackoff = MailRetryBackoff(), markSentRetryPause: Duration = .milliseconds(250)
    ) {
        self.markSentRetryPause = markSentRetryPause
        self.outbox = outbox
        self.transport = transport
        self.clock = clock
        self.random = random
        self.maxAttempts = max(1, maxAttempts)
        self.batchSize = max(1, batchSize)
        self.lease = max(1, lease)
        self.backoff = backoff
    }

    /// Claims one batch and settles its mails one at a time; returns what happened to each. When
    /// the task is cancelled (the server stops), the mail in transfer finishes and the rest of the
    /// batch is given back at once (`release`) instead of sent: a stop waits for one transfer, not
    /// a batch (security round 4, finding 12).
    package func runOnce() async throws(RepositoryError) -> MailSendingPass {
        let claimed = try await outbox.claimDue(limit: batchSize, lease: lease)
        var pass = MailSendingPass(firstAttempts: claimed.count { $0.attempts == 0 })
        for (index, mail) in claimed.enumerated() {
            if Task.isCancelled {
                try await outbox.release(ids: claimed[index...].map(\.message.id))
                pass.released = claimed.count - index
                break
            }
            pass.outcomes.append(try await settle(mail))
        }
        return pass
    }

    private func settle(_ mail: ClaimedMail) async throws(RepositoryError) -> MailSendingOutcome {
        let id = mail.message.id
        let claimedAt = clock.now
        if let notAfter = mail.notAfter, notAfter <= clock.now {
            try await outbox.abandon(id: id, attempts: mail.attempts, lastError: "expired before it could be sent")
            return .dropped(id: id)
        }
        let attempts = mail.attempts + 1
        do {
            try await transport.send(mail.message)
        } catch {
            if error.kind == .permanent || attempts >= maxAttempts {
                try await outbox.abandon(id: id, attempts: attempts, lastError: error.cause)
                return .abandoned(id: id, attempts: attempts, cause: error.cause)
            }
            let delay = backoff.delay(afterAttempts: attempts, unit: unitInterval())
            try await outbox.reschedule(
                id: id, attempts: attempts, lastError: error.cause, nextAttemptAt: clock.now.addingTimeInterval(delay))
            return .retried(id: id, attempts: attempts, cause: error.cause)
        }
        try await markSent(id, claimedAt: claimedAt)
        return .sent(id: id, attempts: attempts)
    }

    /// The mail is delivered: recording it must survive a database that is away for a few
    /// seconds (a switchover, a failover), or the row would be claimed again once its lease ends
    /// and the mail delivered twice. So an unavailable outbox is asked again, for up to half the
    /// lease (the row is this sender's that long), unless the sender is being stopped. A process
    /// killed between the relay's acceptance and this write still sends that mail twice: no
    /// outbox can close that window without the relay's help (docs/mail.md).
    private func markSent(_ id: UUID, claimedAt: Date) async throws(RepositoryError) {
        var pause = markSentRetryPause
        while true {
            do throws(RepositoryError) {
                try await outbox.markSent(id: id)
                return
            } catch {
                guard case .unavailable = error, !Task.isCancelled,
                    clock.now < claimedAt.addingTimeInterval(lease / 2)
                else { throw error }
            }
            // A cancelled sleep ends early; the next failure then sees the cancellation.
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(2))
        }
    }

    /// A uniform value in [0, 1] from the random generator.
    private func unitInterval() -> Double {
        let bytes = random.bytes(count: 4)
        let value = bytes.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        return Double(value) / Double(UInt32.max)
    }
}

/// What one pass of the sender did.
package struct MailSendingPass: Sendable, Hashable {
    /// Claimed mails that had never been tried (what `/metrics` counts as queued).
    package var firstAttempts: Int
    package var outcomes: [MailSendingOutcome] = []
    /// Claimed mails given back untried because the sender was stopping.
    package var released = 0

    package init(firstAttempts: Int = 0, outcomes: [MailSendingOutcome] = [], released: Int = 0) {
        self.firstAttempts = firstAttempts
        self.outcomes = outcomes
        self.released = released
    }
}

/// What happened to one claimed mail.
package enum MailSendingOutcome: Sendable, Hashable {
    case sent(id: UUID, attempts: Int)
    /// A transient failure: tried again later.
    case retried(id: UUID, attempts: Int, cause: String)
    /// Its code expired before it could be sent.
    case dropped(id: UUID)
    /// Given up: `MAIL_MAX_ATTEMPTS` reached, or a permanent refusal.
    case abandoned(id: UUID, attempts: Int, cause: String)
}
