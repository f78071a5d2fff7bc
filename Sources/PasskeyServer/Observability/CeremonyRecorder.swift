/// One log line and one metric per ceremony step outcome, like the talk's
/// `[PasskeyRegistration] step=registration.verifyCredential event=failed reason=…`.
struct CeremonyRecorder: Sendable {
    let logger: Logger
    let metrics: Metrics

    /// Runs one step: on success one `succeeded` line and metric for `step` (with `reason` of the
    /// result, if any); on failure one `failed` line and metric with the error's own step and
    /// reason, then the error goes on to the pipeline, which answers it.
    func record<Value, Failure: CeremonyFailure>(
        _ ceremony: Ceremony, step: String, _ context: RequestContext,
        reason: KeyPath<Value, String>? = nil, _ body: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        do {
            let value = try await body()
            let reason = reason.map { value[keyPath: $0] }
            logger.ceremony(ceremony.name, step: step, event: "succeeded", reason: reason, requestID: context.requestID)
            metrics.recordCeremony(ceremony.metricName, outcome: "succeeded", reason: reason ?? "")
            return value
        } catch {
            let (step, reason) = error.failure
            logger.ceremony(ceremony.name, step: step, event: "failed", reason: reason, requestID: context.requestID)
            metrics.recordCeremony(ceremony.metricName, outcome: "failed", reason: reason)
            throw error
        }
    }

    /// An accepted step worth an operator's look (a synced passkey's counter did not move).
    func warning(_ ceremony: Ceremony, step: String, reason: String, metricReason: String, _ context: RequestContext) {
        logger.ceremony(
            ceremony.name, step: step, event: "warning", reason: reason, requestID: context.requestID, level: .warning)
        metrics.recordCeremony(ceremony.metricName, outcome: "warning", reason: metricReason)
    }
}
