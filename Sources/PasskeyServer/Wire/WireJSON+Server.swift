internal import Foundation
internal import PasskeyWire

extension WireJSON {
    /// A response body; encoding the server's own value types cannot fail (an empty object is
    /// the safe fallback).
    static func body<T: Encodable>(_ value: T) -> [UInt8] {
        (try? Array(encode(value))) ?? Array("{}".utf8)
    }

    /// A body with a hand-written writer (the passkey sign-in path's): the same bytes, without
    /// JSONEncoder.
    static func body<T: JSONWritable>(_ value: T) -> [UInt8] {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.bytes
    }

    /// A request body; nil when it is not valid JSON of the expected shape.
    static func request<T: Decodable>(_ type: T.Type, from body: [UInt8]) -> T? {
        try? decode(type, from: Data(body))
    }
}
