internal import Foundation
internal import PasskeyApplication
internal import Synchronization

/// (v4) This instance's webhook sender's outcomes and the age of the oldest pending delivery
/// (all endpoints, refreshed by the sender at most every few seconds), for `/metrics`
/// (docs/webhooks.md).
final class WebhookMetrics: Sendable {
    private struct State {
        var delivered = 0
        var retried = 0
        var abandoned = 0
        var oldestPendingAge: Double = 0
        var enabled = false
    }

    private let state = Mutex(State())

    func record(_ outcome: WebhookDeliveryOutcome) {
        state.withLock { state in
            state.enabled = true
            switch outcome {
            case .delivered: state.delivered += 1
            case .retried: state.retried += 1
            case .abandoned: state.abandoned += 1
            }
        }
    }

    func recordOldestPendingAge(_ seconds: TimeInterval?) {
        state.withLock { state in
            state.enabled = true
            state.oldestPendingAge = seconds ?? 0
        }
    }

    /// The exposition lines; empty while no sender runs (no `DATA_ENCRYPTION_KEY`).
    func render() -> String {
        let s = state.withLock { $0 }
        guard s.enabled else { return "" }
        var out = "# HELP passkey_webhook_deliveries_total Webhook delivery attempts by result.\n"
        out += "# TYPE passkey_webhook_deliveries_total counter\n"
        for (result, value) in [("delivered", s.delivered), ("retried", s.retried), ("abandoned", s.abandoned)] {
            out += "passkey_webhook_deliveries_total{result=\"\(result)\"} \(value)\n"
        }
        out +=
            "# HELP passkey_webhook_oldest_pending_seconds Age of the oldest pending webhook delivery (0 when none).\n"
        out += "# TYPE passkey_webhook_oldest_pending_seconds gauge\n"
        out += "passkey_webhook_oldest_pending_seconds \(s.oldestPendingAge)\n"
        return out
    }
}
