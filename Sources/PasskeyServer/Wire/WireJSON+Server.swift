internal import Foundation
internal import PasskeyJSON
internal import PasskeyWire

extension WireJSON {
    /// A response body; a failure to encode is thrown with its cause (`HTTPResponse.json`).
    static func body<T: Encodable>(_ value: T) throws -> [UInt8] {
        Array(try encode(value))
    }

    /// A body with a hand-written writer (the passkey sign-in path's): the same bytes, without
    /// JSONEncoder.
    static func body<T: JSONWritable>(_ value: T) -> [UInt8] {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.bytes
    }

    /// A request body; nil when it is not valid JSON of the expected shape (a 400, whose cause
    /// the client's own body is: nothing for the operator's log).
    /// A flat body of a `FlatJSONReadable` type is read without `JSONDecoder`.
    static func request<T: Decodable>(_ type: T.Type, from body: [UInt8]) -> T? {
        if let readable = type as? any FlatJSONReadable.Type, let object = FlatJSONObject(body),
            let value = readable.init(flat: object) as? T
        {
            return value
        }
        return try? decode(type, from: Data(body))
    }
}
