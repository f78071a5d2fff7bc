/// The ceremony step a route records: one log line and one metric per outcome, like the talk's
/// `[PasskeyRegistration] step=registration.verifyCredential event=failed reason=…`. Given as a
/// route's `ceremony:` option, it is recorded by `RequestContext.execute` around the use case:
/// success under this step (with the output's reason, `CeremonyOutcome`), failure under the
/// error's own step and reason (`CeremonyFailure`).
struct CeremonyStep: Sendable {
    let ceremony: Ceremony
    let step: String
    let metrics: Metrics

    func succeeded(_ output: Any, logger: Logger) {
        let outcome = output as? any CeremonyOutcome
        let reason = outcome?.ceremonyReason
        logger.ceremony(ceremony.name, step: step, event: "succeeded", reason: reason)
        metrics.recordCeremony(ceremony.metricName, outcome: "succeeded", reason: reason ?? "")
        if let warning = outcome?.ceremonyWarning {
            // Accepted, but worth an operator's look.
            logger.ceremony(
                ceremony.name, step: warning.step, event: "warning", reason: warning.reason, level: .warning)
            metrics.recordCeremony(ceremony.metricName, outcome: "warning", reason: warning.metricReason)
        }
    }

    func failed(_ error: any Error, logger: Logger) {
        guard let failure = error as? any CeremonyFailure else { return }
        let (step, reason) = failure.failure
        logger.ceremony(ceremony.name, step: step, event: "failed", reason: reason)
        metrics.recordCeremony(ceremony.metricName, outcome: "failed", reason: reason)
    }
}

/// What a ceremony's successful output adds to its line: a reason (the registration's mode) and a
/// warning (a synced passkey whose counter did not move: a possible clone).
protocol CeremonyOutcome {
    var ceremonyReason: String? { get }
    var ceremonyWarning: CeremonyWarning? { get }
}

extension CeremonyOutcome {
    var ceremonyReason: String? { nil }
    var ceremonyWarning: CeremonyWarning? { nil }
}

/// An accepted step worth an operator's look: its own line at `warning` and a `warning` metric.
struct CeremonyWarning: Sendable {
    let step: String
    let reason: String
    let metricReason: String
}
