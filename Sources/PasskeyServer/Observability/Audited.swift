/// A use case's output that an operator should see in the log (a recovery sign-in, a take-back,
/// an address changed, a hash that could not be upgraded): `RequestContext.execute` writes its
/// entry to the request's log, so no handler writes an audit line by hand. The entry never holds
/// a secret (no code, token or password: only IDs and what happened).
protocol Audited {
    /// Nil when this outcome is not worth a line (a password sign-in whose hash was upgraded).
    var audit: AuditEntry? { get }
}

/// One audit line: its level and fields (the request's ID, route and client are added by the
/// request's logger).
struct AuditEntry: Sendable {
    let level: LogLevel
    let fields: [(key: LogKey, value: String)]

    init(_ level: LogLevel, _ fields: KeyValuePairs<LogKey, String>) {
        self.level = level
        self.fields = fields.map { (key: $0.key, value: $0.value) }
    }

    func write(to logger: Logger) {
        logger.log(level, fields)
    }
}
