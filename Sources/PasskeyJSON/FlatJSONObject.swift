/// A strict reader for the one JSON shape a sign-in carries twice — the finish body and the
/// client data: one object whose members are ASCII strings without escapes, `true`, `false` or
/// `null`. It is a fast path in front of Foundation's `JSONDecoder`, never a replacement: it
/// returns nil for anything outside that subset (an escape, a byte outside printable ASCII, a
/// number, a nested object or array, a repeated name, more than `maximumMembers` members, bytes
/// after the object), and the caller then decodes with `JSONDecoder` as before. So for every
/// input it accepts, it gives exactly what `JSONDecoder` gives; for every other input the answer
/// is `JSONDecoder`'s own (the differential fuzz target and `FlatJSONObjectTests` check this).
///
/// Bounds: one pass over the bytes, no recursion, at most `maximumMembers` members.
package struct FlatJSONObject: Sendable {
    package enum Value: Equatable, Sendable {
        case string(String)
        case bool(Bool)
        case null
    }

    /// More members than any real finish body or client data has.
    package static let maximumMembers = 16

    /// The members in the order they came (names are unique).
    package let members: [(name: String, value: Value)]

    /// The member named `name`, or nil when there is none.
    package subscript(name: String) -> Value? {
        for member in members where member.name == name { return member.value }
        return nil
    }

    /// Nil when `bytes` are not one object of the subset above (surrounding JSON whitespace is
    /// allowed).
    package init?(_ bytes: [UInt8]) {
        guard let members = bytes.withUnsafeBufferPointer({ Self.read($0) }) else { return nil }
        self.members = members
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: Value)]? {
        var position = 0
        func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }
        func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }
        /// A string of printable ASCII without `"` or `\` inside; the position is after it.
        func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }
        func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            for index in 0..<count where bytes[position + index] != text.utf8Start[index] { return false }
            position += count
            return true
        }
        func value() -> Value? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return nil
            }
        }

        var members: [(name: String, value: Value)] = []
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            while true {
                guard members.count < maximumMembers, let name = string() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value() else { return nil }
                guard !members.contains(where: { $0.name == name }) else { return nil }
                members.append((name, value))
                skipWhitespace()
                if take(UInt8(ascii: ",")) {
                    skipWhitespace()
                    continue
                }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        skipWhitespace()
        return position == bytes.count ? members : nil
    }
}
