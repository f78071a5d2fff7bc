/// An HTTP response to send: status, header fields and a body held in memory.
///
/// `Content-Length` is computed by the server; a `Content-Length` or `Transfer-Encoding`
/// field given here is ignored.
package struct HTTPResponse: Sendable {
    /// The status (100–999; anything else is sent as 500).
    package var status: HTTPStatus
    /// Header fields in the order they are sent.
    package var headers: HTTPFields
    /// The body bytes (copied when the response is queued).
    package var body: [UInt8]

    package init(status: HTTPStatus, headers: HTTPFields = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body, setting `Content-Type`.
    package init(status: HTTPStatus, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: body)
    }
}
