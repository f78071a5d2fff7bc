public import Foundation

/// Writes JSON byte for byte as `WireJSON.encode` does (sorted keys, unescaped slashes, RFC 3339
/// timestamps), without `JSONEncoder`'s boxing: for the bodies of the passkey sign-in path, which
/// every ceremony sends twice. A type writes its own keys in sorted order; `WireJSONTests` checks
/// each writer against `JSONEncoder` on the same values.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// `"key":`; the value written next belongs to it.
    public mutating func key(_ key: String) {
        separate()
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        quoted(value)
        needsComma = true
    }

    public mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func date(_ value: Date) { string(WireJSON.timestamp(value)) }

    public mutating func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// `"` and `\` escaped, control characters as `\b \f \n \r \t` or `\u00XX`; everything
    /// else (`/`, non-ASCII) as its UTF-8 bytes, as JSONEncoder does with `.withoutEscapingSlashes`.
    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A body with a hand-written writer (the sign-in path's); the server's `WireJSON.body` overload
/// for these types uses it.
public protocol JSONWritable: Encodable {
    func write(to writer: inout JSONWriter)
}

extension SessionResponseBody: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.field("accessToken", accessToken)
            w.field("accountID", accountID)
            w.field("displayName", displayName)
            w.key("expiresAt")
            w.date(expiresAt)
            w.field("method", method)
            w.field("tokenType", tokenType)
        }
    }
}

extension AuthenticationOptionsResponseBody: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.field("challenge", challenge)
            w.field("challengeID", challengeID)
            w.key("expiresAt")
            w.date(expiresAt)
            w.key("publicKey")
            publicKey.write(to: &w)
            w.field("relyingPartyID", relyingPartyID)
        }
    }
}

extension RequestOptionsJSON: JSONWritable {
    public func write(to writer: inout JSONWriter) {
        writer.object { w in
            w.key("allowCredentials")
            w.array { w in
                for descriptor in allowCredentials {
                    w.object { w in
                        w.field("id", descriptor.id)
                        w.field("type", descriptor.type)
                    }
                }
            }
            w.field("challenge", challenge)
            w.key("hints")
            w.array { w in for hint in hints { w.string(hint) } }
            w.field("rpId", rpId)
            w.key("timeout")
            w.integer(timeout)
            w.field("userVerification", userVerification)
        }
    }
}
