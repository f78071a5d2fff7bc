/// An element type whose Swift array a column decodes to, and how: `[UInt8]` reads a `bytea`,
/// `[String]` a one-dimensional `text[]`. (Swift allows `Array` one conditional conformance to
/// `PostgresDecodable`, so the element decides which PostgreSQL type an array of it reads.)
package protocol PostgresArrayElement: Sendable {
    /// True when a column of `type` holds values of `[Self]`.
    static func acceptsArray(_ type: PostgresDataType) -> Bool

    /// Reads a non-NULL `[Self]` from its text format; `column` names it in the error.
    static func decodeArray(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError)
        -> [Self]
}

extension Array: PostgresDecodable where Element: PostgresArrayElement {
    package static func accepts(_ type: PostgresDataType) -> Bool { Element.acceptsArray(type) }

    package init(postgresText text: UnsafeBufferPointer<UInt8>, column: String) throws(PostgresError) {
        self = try Element.decodeArray(postgresText: text, column: column)
    }
}
