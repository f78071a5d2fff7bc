internal import Foundation
internal import Synchronization

/// Prometheus counters and histograms kept in memory (per instance), served at `/metrics`.
final class Metrics: Sendable {
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.latencyBuckets.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        var requests: [String: Int] = [:]  // "route|method|status"
        var latency: [String: Histogram] = [:]  // "route|method"
        var ceremonies: [String: Int] = [:]  // "ceremony|outcome|reason"
    }

    private let state = Mutex(State())
    /// (v3) The outbox's counters and gauge.
    let mail = MailMetrics()
    /// (v4) The webhook sender's counters and gauge.
    let webhooks = WebhookMetrics()

    func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests["\(route)|\(method)|\(status)", default: 0] += 1
            var histogram = state.latency["\(route)|\(method)"] ?? Histogram()
            for (index, bound) in Self.latencyBuckets.enumerated() where seconds <= bound {
                histogram.counts[index] += 1
            }
            histogram.sum += seconds
            histogram.count += 1
            state.latency["\(route)|\(method)"] = histogram
        }
    }

    /// A ceremony outcome: `outcome` is `succeeded` or `failed` (or `warning`), `reason` a contract code.
    func recordCeremony(_ ceremony: String, outcome: String, reason: String = "") {
        state.withLock { $0.ceremonies["\(ceremony)|\(outcome)|\(reason)", default: 0] += 1 }
    }

    /// The text exposition format (version 0.0.4).
    func render() -> String {
        let snapshot = state.withLock { $0 }
        var out = "# HELP passkey_http_requests_total HTTP requests by route, method and status.\n"
        out += "# TYPE passkey_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
            let p = key.split(separator: "|", omittingEmptySubsequences: false)
            out +=
                "passkey_http_requests_total{route=\"\(p[0])\",method=\"\(p[1])\",status=\"\(p[2])\"} \(count)\n"
        }
        out += "# HELP passkey_http_request_duration_seconds Request latency by route and method.\n"
        out += "# TYPE passkey_http_request_duration_seconds histogram\n"
        for (key, h) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            let p = key.split(separator: "|", omittingEmptySubsequences: false)
            let labels = "route=\"\(p[0])\",method=\"\(p[1])\""
            for (index, bound) in Self.latencyBuckets.enumerated() {
                out += "passkey_http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(h.counts[index])\n"
            }
            out += "passkey_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(h.count)\n"
            out += "passkey_http_request_duration_seconds_sum{\(labels)} \(h.sum)\n"
            out += "passkey_http_request_duration_seconds_count{\(labels)} \(h.count)\n"
        }
        out += "# HELP passkey_ceremony_outcomes_total Ceremony outcomes by ceremony, outcome and reason.\n"
        out += "# TYPE passkey_ceremony_outcomes_total counter\n"
        for (key, count) in snapshot.ceremonies.sorted(by: { $0.key < $1.key }) {
            let p = key.split(separator: "|", omittingEmptySubsequences: false)
            out +=
                "passkey_ceremony_outcomes_total{ceremony=\"\(p[0])\",outcome=\"\(p[1])\",reason=\"\(p[2])\"} \(count)\n"
        }
        out += mail.render()
        out += webhooks.render()
        return out
    }
}
