/// A Swift type a column can be decoded to by name (`PostgresRow.decode(_:column:)`): which
/// PostgreSQL types it reads, checked against the column's type before any value is read, and
/// how it reads PostgreSQL's text output format. `Optional` reads SQL NULL as `nil`; every other
/// type refuses NULL.
package protocol PostgresDecodable: Sendable {
    /// True when a column of `type` holds values of this Swift type.
    static func accepts(_ type: PostgresDataType) -> Bool

    /// Reads a non-NULL value from its text format; `column` names it in the error.
    init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError)

    /// The value for SQL NULL; the default throws.
    static func postgresNull(column: String) throws(PostgresError) -> Self
}

extension PostgresDecodable {
    package static func postgresNull(column: String) throws(PostgresError) -> Self {
        throw PostgresError(kind: .decoding, column: column, diagnostic: "column \(column) is NULL")
    }

    /// The decoding error for a value of `column` that is not a `Self`.
    static func malformed(_ column: String) -> PostgresError {
        PostgresError(kind: .decoding, column: column, diagnostic: "column \(column) is not a valid \(Self.self)")
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    package static func accepts(_ type: PostgresDataType) -> Bool { Wrapped.accepts(type) }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        self = .some(try Wrapped(postgresText: text, column: column))
    }

    package static func postgresNull(column: String) throws(PostgresError) -> Self { nil }
}
