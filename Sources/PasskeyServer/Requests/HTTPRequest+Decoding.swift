internal import PasskeyHTTP
internal import PasskeyWire

extension HTTPRequest {
    /// The JSON body as `T`; 400 `invalid-request` when it is not JSON of that shape.
    func decode<T: Decodable>(_ type: T.Type) throws(Problem) -> T {
        guard let value = WireJSON.request(type, from: body) else {
            throw Problem.invalidRequest("The body is not JSON of the expected shape (missing or mistyped field).")
        }
        return value
    }

    /// The same, where an empty body means `empty` (the start endpoints' optional bodies).
    func decode<T: Decodable>(_ type: T.Type, orIfEmpty empty: @autoclosure () -> T) throws(Problem) -> T {
        body.isEmpty ? empty() : try decode(type)
    }
}
