internal import Foundation
internal import PasskeyApplication

/// `serve`'s background mail sender (docs/mail.md): a pass of `MailOutboxSender` every poll
/// interval (at once again while passes find a full batch), the oldest-due gauge refreshed at
/// most every 5 seconds, until cancelled. A pass in progress finishes its current mail, so a
/// shutdown waits for at most one transfer (bounded by the transport's timeouts).
struct MailDeliveryLoop: Sendable {
    let sender: MailOutboxSender
    let outbox: any MailOutboxRepository
    let metrics: MailMetrics
    let logger: Logger
    let pollInterval: TimeInterval
    let batchSize: Int
    let gaugeInterval: TimeInterval = 5

    func run() async {
        var gaugeDue = Date.distantPast
        while !Task.isCancelled {
            var claimed = 0
            do {
                let pass = try await sender.runOnce()
                claimed = pass.outcomes.count
                metrics.record(pass)
                log(pass)
            } catch {
                logger.warning([.event: "mail", .outcome: "failed", .error: FailureCause(error).logText])
            }
            if Date() >= gaugeDue {
                gaugeDue = Date().addingTimeInterval(gaugeInterval)
                do {
                    if let age = try await outbox.oldestDueAge() { metrics.recordOldestDueAge(age) }
                } catch {
                    logger.warning([.event: "mail_gauge", .outcome: "failed", .error: FailureCause(error).logText])
                }
            }
            // A full batch means more may be due: go on at once. Cancellation ends the sleep early.
            if claimed < batchSize { try? await Task.sleep(for: .milliseconds(Int(pollInterval * 1000))) }
        }
    }

    /// One line per settled mail: IDs, attempts and the transport's cause, never a body.
    private func log(_ pass: MailSendingPass) {
        for outcome in pass.outcomes {
            switch outcome {
            case .sent(let id, let attempts):
                logger.info([
                    .event: "mail", .outcome: "sent", .mailID: id.uuidString.lowercased(),
                    .attempts: String(attempts),
                ])
            case .retried(let id, let attempts, let cause):
                logger.warning([
                    .event: "mail", .outcome: "retry", .mailID: id.uuidString.lowercased(),
                    .attempts: String(attempts), .error: cause,
                ])
            case .dropped(let id):
                logger.info([
                    .event: "mail", .outcome: "dropped", .reason: "expired", .mailID: id.uuidString.lowercased(),
                ])
            case .abandoned(let id, let attempts, let cause):
                logger.error([
                    .event: "mail", .outcome: "abandoned", .mailID: id.uuidString.lowercased(),
                    .attempts: String(attempts), .error: cause,
                ])
            }
        }
    }
}
