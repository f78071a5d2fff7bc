/// An HTTP response to send: status, header fields and a body held in memory.
///
/// `Content-Length` is computed by the server; a `Content-Length` or `Transfer-Encoding`
/// field given here is ignored.
package struct HTTPResponse: Sendable {
    /// The status code (100–999; anything else is sent as 500).
    package var status: Int
    /// Header fields in the order they are sent.
    package var headers: [(name: String, value: String)]
    /// The body bytes (copied when the response is queued).
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body, setting `Content-Type`.
    package init(status: Int, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: body)
    }
}
