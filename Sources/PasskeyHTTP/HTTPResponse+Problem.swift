extension HTTPResponse {
    /// A minimal RFC 9457 problem+json answer for an error of the HTTP layer itself, e.g.
    /// `{"type":"about:blank","title":"Bad Request","status":400,"detail":"…","code":"invalid-request"}`.
    /// The default of `HTTPServer.Configuration.layerError`; the application normally supplies
    /// its own with the same codes.
    @Sendable package static func problem(status: HTTPStatus) -> HTTPResponse {
        let (title, detail, code): (String, String, String)
        switch status.code {
        case 400:
            (title, detail, code) = ("Bad Request", "The request is malformed or ambiguous.", "invalid-request")
        case 408:
            (title, detail, code) = ("Request Timeout", "The request body did not arrive in time.", "invalid-request")
        case 413:
            (title, detail, code) = ("Content Too Large", "The request body is too large.", "payload-too-large")
        case 431:
            (title, detail, code) = (
                "Request Header Fields Too Large", "The request head is too large.", "invalid-request"
            )
        case 503:
            (title, detail, code) = (
                "Service Unavailable", "The server is shutting down.", "service-unavailable"
            )
        default:
            (title, detail, code) = ("Error", "The request could not be handled.", "invalid-request")
        }
        let body =
            #"{"type":"about:blank","title":"\#(title)","status":\#(status),"detail":"\#(detail)","code":"\#(code)"}"#
        var headers: HTTPFields = [("Content-Type", "application/problem+json")]
        if status == .serviceUnavailable || status == .requestTimeout { headers.append(("Connection", "close")) }
        return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    /// The default answer to a client over `maximumConnections`: 503 problem+json
    /// `service-unavailable` with `Retry-After: 1` and `Connection: close`.
    @Sendable package static func tooManyConnections() -> HTTPResponse {
        let body =
            #"{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"Too many connections; try again shortly.","code":"service-unavailable"}"#
        return HTTPResponse(
            status: 503,
            headers: [("Content-Type", "application/problem+json"), ("Retry-After", "1"), ("Connection", "close")],
            body: Array(body.utf8))
    }
}
