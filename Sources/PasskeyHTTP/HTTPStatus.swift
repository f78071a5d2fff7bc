/// A response status: its code (100–999; anything else is sent as 500) and, for the codes this
/// server answers with, the reason phrase of the status line.
package struct HTTPStatus: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    package let code: Int

    package init(_ code: Int) { self.code = code }
    package init(integerLiteral value: Int) { self.code = value }

    package static let ok: HTTPStatus = 200
    package static let created: HTTPStatus = 201
    package static let accepted: HTTPStatus = 202
    package static let noContent: HTTPStatus = 204
    package static let badRequest: HTTPStatus = 400
    package static let unauthorized: HTTPStatus = 401
    package static let forbidden: HTTPStatus = 403
    package static let notFound: HTTPStatus = 404
    package static let methodNotAllowed: HTTPStatus = 405
    package static let requestTimeout: HTTPStatus = 408
    package static let conflict: HTTPStatus = 409
    package static let payloadTooLarge: HTTPStatus = 413
    package static let tooManyRequests: HTTPStatus = 429
    package static let headerFieldsTooLarge: HTTPStatus = 431
    package static let internalServerError: HTTPStatus = 500
    package static let serviceUnavailable: HTTPStatus = 503

    /// 5xx: the server's failure, not the client's.
    package var isServerError: Bool { (500...599).contains(code) }

    /// The reason phrase (RFC 9110 §15) for the codes this server sends, else "Unknown".
    package var reasonPhrase: String {
        switch code {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Unknown"
        }
    }

    package var description: String { String(code) }

    package static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code < rhs.code }
}
