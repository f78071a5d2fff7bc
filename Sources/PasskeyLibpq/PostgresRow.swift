/// One row of a result, read in place from its `PGresult` (kept alive by `PGresultOwner` for as
/// long as a row or the result is held).
///
/// Decode columns by name: `try row.decode(String.self, column: "display_name")`. The name is
/// looked up in the result's column index (built once per result), and the column's type is
/// checked against the Swift type before the value is read, so a renamed, dropped or retyped
/// column in a `SELECT` throws a `.decoding` error naming it, and a reordered one still decodes.
package struct PostgresRow: Sendable {
    package let result: PGresultOwner
    let index: Int32

    init(result: PGresultOwner, index: Int32) {
        self.result = result
        self.index = index
    }

    /// The number of columns.
    package var count: Int { result.columnCount }

    /// The value of the column named `column`, as `Value` (`String?`, `Date`, `[UInt8]`, …).
    /// Throws `.decoding`, naming the column, when the result has no such column, when its
    /// PostgreSQL type does not fit `Value`, or when it is NULL and `Value` is not optional.
    package func decode<Value: PostgresDecodable>(
        _ type: Value.Type = Value.self, column: String
    ) throws(PostgresError) -> Value {
        guard let position = result.columnIndexes[column] else {
            throw PostgresError(kind: .decoding, column: column, diagnostic: "the result has no column \(column)")
        }
        guard position != PGresultOwner.ambiguous else {
            throw PostgresError(
                kind: .decoding, column: column, diagnostic: "the result has several columns named \(column)")
        }
        let columnType = result.columnTypes[Int(position)]
        guard Value.accepts(columnType) else {
            throw PostgresError(
                kind: .decoding, column: column, diagnostic: "column \(column) is \(columnType), not \(Value.self)")
        }
        if result.isNull(row: index, column: position) { return try Value.postgresNull(column: column) }
        return try result.withValue(row: index, column: position) { text throws(PostgresError) in
            try Value(postgresText: text, column: column)
        }
    }
}
