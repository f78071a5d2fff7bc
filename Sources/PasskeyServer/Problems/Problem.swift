internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// An RFC 9457 problem detail with the contract's stable `code`.
struct Problem: Error, Sendable {
    let status: Int
    let code: ErrorCode
    /// For humans; never a secret, never an echo of input.
    let detail: String
    /// Registration verification failures only.
    var reason: String?
    var headers: [(name: String, value: String)] = []
    /// Why a 500 happened, for the operator's log (with the request ID); never sent.
    var cause: String?

    init(
        status: Int, code: ErrorCode, detail: String, reason: String? = nil,
        headers: [(name: String, value: String)] = []
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.reason = reason
        self.headers = headers
    }

    static func invalidRequest(_ detail: String) -> Problem {
        Problem(status: 400, code: .invalidRequest, detail: detail)
    }
    static let unauthorized = Problem(status: 401, code: .unauthorized, detail: "A valid bearer token is required.")
    static let notFound = Problem(status: 404, code: .notFound, detail: "No such resource.")
    static let unavailable = Problem(
        status: 503, code: .serviceUnavailable, detail: "The database is unavailable; try again shortly.",
        headers: [("Retry-After", "1")])
    static func internalFailure(cause: FailureCause) -> Problem {
        internalFailure(logText: cause.logText)
    }
    /// A 500 for an error no mapping knows (`Problem(_:)`): its description is the log's cause.
    static func internalFailure(unmapped error: any Error) -> Problem {
        internalFailure(logText: String(reflecting: error))
    }
    private static func internalFailure(logText: String) -> Problem {
        var problem = Problem(status: 500, code: .internal, detail: "Internal error.")
        problem.cause = logText
        return problem
    }
    static let hashingBusy = Problem(
        status: 503, code: .serviceUnavailable, detail: "Too many password checks are waiting; try again shortly.",
        headers: [("Retry-After", "1")])
    static let reauthenticationRequired = Problem(
        status: 403, code: .reauthenticationRequired,
        detail: "This change needs a recent sign-in; sign in again and retry.")
    static let payloadTooLarge = Problem(
        status: 413, code: .payloadTooLarge, detail: "Request bodies are limited to 65536 bytes.")

    static func rateLimited(retryAfter: Int) -> Problem {
        Problem(
            status: 429, code: .rateLimited, detail: "Too many requests; retry later.",
            headers: [("Retry-After", String(max(1, retryAfter)))])
    }

    /// What the HTTP layer answers by itself (ambiguous or malformed request, head or body too
    /// large, shutting down), with the contract's codes.
    static func httpLayer(status: Int) -> Problem {
        switch status {
        case 408:
            Problem(
                status: 408, code: .invalidRequest, detail: "The request body did not arrive in time.",
                headers: [("Connection", "close")])
        case 413: payloadTooLarge
        case 431: Problem(status: 431, code: .invalidRequest, detail: "The request head is too large.")
        case 503:
            Problem(
                status: 503, code: .serviceUnavailable, detail: "The server is shutting down.",
                headers: [("Connection", "close")])
        default: Problem(status: status, code: .invalidRequest, detail: "The request is malformed or ambiguous.")
        }
    }

    /// A client over `HTTP_MAX_CONNECTIONS`: answered at once (the HTTP layer writes it on the
    /// socket and closes the connection), never left waiting in the backlog.
    static let tooManyConnections = Problem(
        status: 503, code: .serviceUnavailable, detail: "Too many connections; try again shortly.",
        headers: [("Retry-After", "1"), ("Connection", "close")])

    static func methodNotAllowed(allow: [String]) -> Problem {
        Problem(
            status: 405, code: .methodNotAllowed, detail: "This method is not allowed here.",
            headers: [("Allow", allow.joined(separator: ", "))])
    }

    /// The status phrase used as `title` (RFC 9457 §4.2 with `type: about:blank`).
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }

    var response: HTTPResponse {
        let details = ProblemDetails(
            title: Self.phrase(status), status: status, detail: detail, code: code, reason: reason)
        // A problem is the last answer there is: should encoding these few strings ever fail,
        // the client still gets the status with a minimal problem body (deliberately no throw).
        let body =
            (try? WireJSON.body(details))
            ?? Array(#"{"type":"about:blank","status":\#(status),"code":"\#(code.rawValue)"}"#.utf8)
        var fields: HTTPFields = [("Content-Type", "application/problem+json")]
        fields.append(contentsOf: headers)
        return HTTPResponse(status: HTTPStatus(status), headers: fields, body: body)
    }
}
