package import Foundation

/// A bound parameter: text (format 0) or raw bytes (format 1, for `bytea`), or NULL.
package enum PostgresValue: Sendable, Hashable {
    case text(String)
    case binary([UInt8])
    case null
}

/// A Swift value that can be bound as a query parameter.
package protocol PostgresEncodable: Sendable {
    var postgresValue: PostgresValue { get }
}

extension String: PostgresEncodable {
    package var postgresValue: PostgresValue { .text(self) }
}

extension Int: PostgresEncodable {
    package var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int64: PostgresEncodable {
    package var postgresValue: PostgresValue { .text(String(self)) }
}

extension UInt32: PostgresEncodable {
    package var postgresValue: PostgresValue { .text(String(self)) }
}

extension Bool: PostgresEncodable {
    package var postgresValue: PostgresValue { .text(self ? "true" : "false") }
}

extension UUID: PostgresEncodable {
    package var postgresValue: PostgresValue { .text(uuidString.lowercased()) }
}

extension Date: PostgresEncodable {
    /// Microsecond precision, UTC, as `timestamptz` reads it.
    package var postgresValue: PostgresValue { .text(PostgresTimestamp.format(self)) }
}

/// Bytes bound in binary form, for `bytea` columns.
package struct PostgresBytes: PostgresEncodable {
    package let bytes: [UInt8]
    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package var postgresValue: PostgresValue { .binary(bytes) }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    package var postgresValue: PostgresValue {
        switch self {
        case .some(let value): value.postgresValue
        case .none: .null
        }
    }
}
