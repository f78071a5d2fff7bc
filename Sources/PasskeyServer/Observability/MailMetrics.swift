internal import Foundation
internal import PasskeyApplication
internal import Synchronization

/// The outbox's counters (this instance's sender) and the age of the oldest due mail (the whole
/// outbox, refreshed by the sender at most every few seconds), for `/metrics` (docs/mail.md).
final class MailMetrics: Sendable {
    private struct State {
        var queued = 0
        var sent = 0
        var retried = 0
        var dropped = 0
        var abandoned = 0
        var oldestDueAge: Double = 0
        var enabled = false
    }

    private let state = Mutex(State())

    /// One pass of the sender: the mails it tried for the first time, and each outcome.
    func record(_ pass: MailSendingPass) {
        state.withLock { state in
            state.enabled = true
            state.queued += pass.firstAttempts
            for outcome in pass.outcomes {
                switch outcome {
                case .sent: state.sent += 1
                case .retried: state.retried += 1
                case .dropped: state.dropped += 1
                case .abandoned: state.abandoned += 1
                }
            }
        }
    }

    func recordOldestDueAge(_ seconds: TimeInterval?) {
        state.withLock { state in
            state.enabled = true
            state.oldestDueAge = seconds ?? 0
        }
    }

    /// The exposition lines; empty while mail is off (no sender ran).
    func render() -> String {
        let s = state.withLock { $0 }
        guard s.enabled else { return "" }
        var out = ""
        let counters: [(String, String, Int)] = [
            ("queued", "Mails this instance's sender picked up for their first attempt.", s.queued),
            ("sent", "Mails handed to the transport.", s.sent),
            ("retried", "Delivery attempts that failed and were scheduled again.", s.retried),
            ("dropped", "Code mails dropped because their code expired before sending.", s.dropped),
            ("abandoned", "Mails given up after MAIL_MAX_ATTEMPTS or a permanent refusal.", s.abandoned),
        ]
        for (name, help, value) in counters {
            out += "# HELP passkey_mail_\(name)_total \(help)\n# TYPE passkey_mail_\(name)_total counter\n"
            out += "passkey_mail_\(name)_total \(value)\n"
        }
        out += "# HELP passkey_mail_oldest_due_age_seconds Age of the oldest due, unsent mail (0 when none).\n"
        out += "# TYPE passkey_mail_oldest_due_age_seconds gauge\n"
        out += "passkey_mail_oldest_due_age_seconds \(s.oldestDueAge)\n"
        return out
    }
}
