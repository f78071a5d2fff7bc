internal import PasskeyHTTP
internal import PasskeyWire

/// The answers handlers build.
extension HTTPResponse {
    /// A JSON body. Encoding the server's own value types should not fail; if it ever does, the
    /// error reaches the pipeline as a 500 with its cause logged, never a half-written body.
    static func json<T: Encodable>(_ status: HTTPStatus, _ value: T) throws -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: try WireJSON.body(value))
    }

    /// The same for the bodies with a hand-written writer (the passkey sign-in path's), chosen by
    /// the compiler for those types; it cannot fail, and is `throws` only so both read alike.
    static func json<T: JSONWritable>(_ status: HTTPStatus, _ value: T) throws -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: WireJSON.body(value))
    }

    static var noContent: HTTPResponse { HTTPResponse(status: 204) }
}

extension HTTPResponse {
    /// 202 `{}`: the request is taken; what follows arrives by mail.
    static var accepted: HTTPResponse {
        HTTPResponse(status: 202, contentType: "application/json", body: Array("{}".utf8))
    }
}
