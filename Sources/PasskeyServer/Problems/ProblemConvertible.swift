/// A use-case error that knows its HTTP answer. Each use case's error enum conforms once, in
/// `ProblemMapping.swift`, with an exhaustive switch: a new case breaks the build there.
protocol ProblemConvertible: Error {
    var problem: Problem { get }
}

/// The error of a ceremony step: its answer, plus where it failed and why for the log line and
/// the metric (`CeremonyFailures.swift`). `CeremonyRecorder.record` logs and counts it; the route
/// kind (`HandlerRunner`) answers it with its problem.
protocol CeremonyFailure: ProblemConvertible {
    /// `step` as in `[PasskeyAuthentication] step=authentication.verifyAssertion`, and the
    /// `reason` (camelCase, the same in log and metric).
    var failure: (step: String, reason: String) { get }
}

extension Problem: ProblemConvertible {
    var problem: Problem { self }
}

extension Problem {
    /// The answer to whatever a handler threw: a mapped error's problem, else a 500 whose cause
    /// is the error itself (logged, never sent).
    init(_ error: any Error) {
        if let convertible = error as? any ProblemConvertible {
            self = convertible.problem
        } else {
            self = .internalFailure(unmapped: error)
        }
    }
}
