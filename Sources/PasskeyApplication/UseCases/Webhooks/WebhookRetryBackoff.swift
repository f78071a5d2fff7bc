package import Foundation

/// The delay before a webhook delivery's next attempt (spec v4, "Delivery"): 1 s after the
/// first failure, then doubling, each plus up to 50 % jitter (so deliveries that failed together
/// do not retry together), never more than an hour.
package struct WebhookRetryBackoff: Sendable, Hashable {
    package var base: TimeInterval
    package var maximum: TimeInterval

    package init(base: TimeInterval = 1, maximum: TimeInterval = 3_600) {
        self.base = max(0.001, base)
        self.maximum = max(self.base, maximum)
    }

    /// `base · 2^(attempts − 1)`, before jitter.
    package func nominalDelay(afterAttempts attempts: Int) -> TimeInterval {
        base * pow(2, Double(min(max(attempts, 1) - 1, 40)))
    }

    /// `unit` in [0, 1] (from the random generator) adds up to half of the nominal delay; the
    /// result is at most `maximum`.
    package func delay(afterAttempts attempts: Int, unit: Double) -> TimeInterval {
        let nominal = nominalDelay(afterAttempts: attempts)
        return min(maximum, nominal + min(1, max(0, unit)) * nominal / 2)
    }
}
