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
