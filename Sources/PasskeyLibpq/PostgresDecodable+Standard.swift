package import Foundation

extension String: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool {
        type == .text || type == .varchar || type == .bpchar || type == .name
    }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        self = String(decoding: text, as: UTF8.self)
    }
}

extension Int: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool {
        type == .int8 || type == .int4 || type == .int2
    }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        guard let value = Int(String(decoding: text, as: UTF8.self)) else { throw Self.malformed(column) }
        self = value
    }
}

extension Int64: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool { Int.accepts(type) }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        guard let value = Int64(String(decoding: text, as: UTF8.self)) else { throw Self.malformed(column) }
        self = value
    }
}

extension UInt32: PostgresDecodable {
    /// A signature counter is kept in an `int8` (PostgreSQL has no unsigned types).
    package static func accepts(_ type: PostgresDataType) -> Bool { Int.accepts(type) }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        guard let value = UInt32(String(decoding: text, as: UTF8.self)) else { throw Self.malformed(column) }
        self = value
    }
}

extension Double: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool { type == .float8 || type == .float4 }

    /// Also reads `NaN`, `Infinity` and `-Infinity`, as PostgreSQL writes them.
    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        guard let value = Double(String(decoding: text, as: UTF8.self)) else { throw Self.malformed(column) }
        self = value
    }
}

extension Bool: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool { type == .bool }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        switch String(decoding: text, as: UTF8.self) {
        case "t", "true": self = true
        case "f", "false": self = false
        default: throw Self.malformed(column)
        }
    }
}

extension UUID: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool { type == .uuid }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        guard let value = UUID(uuidString: String(decoding: text, as: UTF8.self)) else {
            throw Self.malformed(column)
        }
        self = value
    }
}

extension Date: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool { type == .timestamptz }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        guard let value = PostgresTimestamp.parse(String(decoding: text, as: UTF8.self)) else {
            throw Self.malformed(column)
        }
        self = value
    }
}

extension Array: PostgresDecodable where Element == UInt8 {
    package static func accepts(_ type: PostgresDataType) -> Bool { type == .bytea }

    /// `bytea` in hex output format (`\x0a1b…`).
    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
            throw Self.malformed(column)
        }
        var out = [UInt8]()
        out.reserveCapacity((text.count - 2) / 2)
        var i = 2
        while i < text.count {
            guard let hi = Self.nibble(text[i]), let lo = Self.nibble(text[i + 1]) else { throw Self.malformed(column) }
            out.append(hi << 4 | lo)
            i += 2
        }
        self = out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}
