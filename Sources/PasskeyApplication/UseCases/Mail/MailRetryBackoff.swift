package import Foundation

/// The delay before a mail's next delivery attempt: exponential in the attempts made so far,
/// capped, with "equal jitter" so that mails that failed together do not retry together.
///
/// After attempt `n` (1-based) the nominal delay is `base · 2^(n−1)`, capped at `maximum`; the
/// actual delay is uniform in [nominal / 2, nominal]. With the defaults (30 s, 1 h) the eighth
/// attempt comes roughly 1–2 hours after the first: a relay outage of that length loses nothing.
package struct MailRetryBackoff: Sendable, Hashable {
    package var base: TimeInterval
    package var maximum: TimeInterval

    package init(base: TimeInterval = 30, maximum: TimeInterval = 3_600) {
        self.base = max(0.001, base)
        self.maximum = max(self.base, maximum)
    }

    /// The nominal (un-jittered) delay after `attempts` failed attempts (≥ 1).
    package func nominalDelay(afterAttempts attempts: Int) -> TimeInterval {
        let exponent = min(max(attempts, 1) - 1, 40)
        return min(maximum, base * pow(2, Double(exponent)))
    }

    /// The delay to wait: `unit` in [0, 1] (from the random generator) picks a point in
    /// [nominal / 2, nominal].
    package func delay(afterAttempts attempts: Int, unit: Double) -> TimeInterval {
        let nominal = nominalDelay(afterAttempts: attempts)
        let clamped = min(1, max(0, unit))
        return nominal / 2 + clamped * nominal / 2
    }
}
