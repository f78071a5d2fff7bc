/// The names of log fields: one closed list, so a field is spelled one way in every line (and a
/// typo is a build error, not a new field). logfmt keys, snake case.
struct LogKey: Hashable, Sendable {
    let name: String

    private init(_ name: String) { self.name = name }

    // What every request's logger carries (`RequestContext.logger`).
    static let requestID = LogKey("request_id")
    static let route = LogKey("route")
    static let client = LogKey("client")

    // What happened.
    static let event = LogKey("event")
    static let outcome = LogKey("outcome")
    static let cause = LogKey("cause")
    static let detail = LogKey("detail")
    static let error = LogKey("error")
    static let reason = LogKey("reason")

    // Who and what.
    static let accountID = LogKey("account_id")
    static let source = LogKey("source")
    static let reclaimed = LogKey("reclaimed")
    static let issuedBy = LogKey("issued_by")
    static let expiresAt = LogKey("expires_at")
    static let mailID = LogKey("mail_id")
    static let attempts = LogKey("attempts")
    static let webhookID = LogKey("webhook_id")
    static let operatorName = LogKey("operator")
    static let eventID = LogKey("event_id")
    static let deleted = LogKey("deleted")
    static let entry = LogKey("entry")
    static let entryBytes = LogKey("entry_bytes")

    // The access log.
    static let method = LogKey("method")
    static let status = LogKey("status")
    static let durationMilliseconds = LogKey("duration_ms")

    // The process.
    static let host = LogKey("host")
    static let port = LogKey("port")
    static let relyingPartyID = LogKey("rp_id")
    static let signal = LogKey("signal")
    static let seconds = LogKey("seconds")
    static let service = LogKey("service")
    static let destination = LogKey("destination")
}
