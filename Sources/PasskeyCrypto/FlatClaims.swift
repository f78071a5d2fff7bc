/// A strict, fast reader for the claims exactly as `ES256AccessTokenFormat` writes them: one
/// object, no whitespace, members whose values are strings without escapes, whole numbers, or
/// arrays of such strings. Anything else answers nil and the caller decodes with `JSONDecoder`,
/// so this only ever agrees with it. Bounded: one pass, at most 32 members.
enum FlatClaims {
    private enum Value {
        case string(String)
        case integer(Int)
        case strings([String])
    }

    static func read(_ bytes: [UInt8]) -> ES256AccessTokenFormat.Payload? {
        guard let members = bytes.withUnsafeBufferPointer({ object($0) }) else { return nil }
        func string(_ name: String) -> String? {
            if case .string(let value) = members[name] { return value }
            return nil
        }
        func integer(_ name: String) -> Int? {
            if case .integer(let value) = members[name] { return value }
            return nil
        }
        guard case .strings(let amr) = members["amr"], let iss = string("iss"), let aud = string("aud"),
            let sub = string("sub"), let sid = string("sid"), let jti = string("jti"), let iat = integer("iat"),
            let exp = integer("exp"), let authTime = integer("auth_time"), let method = string("method"),
            let stage = string("stage")
        else { return nil }
        return ES256AccessTokenFormat.Payload(
            iss: iss, aud: aud, sub: sub, sid: sid, jti: jti, iat: iat, exp: exp, authTime: authTime, amr: amr,
            method: method, stage: stage)
    }

    private static func object(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: Value]? {
        var position = 0
        var members: [String: Value] = [:]
        func byte() -> UInt8? { position < bytes.count ? bytes[position] : nil }
        func expect(_ wanted: UInt8) -> Bool {
            guard byte() == wanted else { return false }
            position += 1
            return true
        }
        func string() -> String? {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while let current = byte(), current != UInt8(ascii: "\"") {
                // An escape, a control character or a non-ASCII byte: JSONDecoder's to read.
                guard current != UInt8(ascii: "\\"), current >= 0x20, current < 0x80 else { return nil }
                position += 1
            }
            guard byte() == UInt8(ascii: "\"") else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            position += 1
            return text
        }
        func integer() -> Int? {
            var negative = false
            if byte() == UInt8(ascii: "-") {
                negative = true
                position += 1
            }
            let start = position
            var value = 0
            while let current = byte(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) {
                guard position - start < 15 else { return nil }
                value = value * 10 + Int(current - UInt8(ascii: "0"))
                position += 1
            }
            // No leading zeros (JSON), and a number, not a fraction or exponent.
            guard position > start, !(bytes[start] == UInt8(ascii: "0") && position - start > 1) else { return nil }
            return negative ? -value : value
        }
        guard expect(UInt8(ascii: "{")) else { return nil }
        if expect(UInt8(ascii: "}")) { return position == bytes.count ? members : nil }
        repeat {
            guard members.count < 32, let name = string(), members[name] == nil, expect(UInt8(ascii: ":")) else {
                return nil
            }
            switch byte() {
            case UInt8(ascii: "\""):
                guard let value = string() else { return nil }
                members[name] = .string(value)
            case UInt8(ascii: "["):
                position += 1
                var values: [String] = []
                if !expect(UInt8(ascii: "]")) {
                    repeat {
                        guard values.count < 16, let value = string() else { return nil }
                        values.append(value)
                    } while expect(UInt8(ascii: ","))
                    guard expect(UInt8(ascii: "]")) else { return nil }
                }
                members[name] = .strings(values)
            default:
                guard let value = integer() else { return nil }
                members[name] = .integer(value)
            }
        } while expect(UInt8(ascii: ","))
        guard expect(UInt8(ascii: "}")), position == bytes.count else { return nil }
        return members
    }
}
