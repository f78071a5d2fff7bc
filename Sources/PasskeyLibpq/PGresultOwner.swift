internal import CLibpq

/// The one owner of a libpq `PGresult`: it clears it (`PQclear`) in `deinit`, when the last
/// `PostgresResult` or `PostgresRow` reading it lets go, and nothing else in the package frees
/// one. Its column layout (`PostgresColumns`) is read once per shape of result, so that rows
/// are decoded by name without looking a name up in libpq per row.
///
/// `@unchecked Sendable`: a `PGresult` is immutable once libpq hands it over, and libpq allows
/// reading one from several threads; the handle never leaves this class.
package final class PGresultOwner: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The columns (names, name → index, types), shared with earlier results of the same shape
    /// on the connection.
    let columns: PostgresColumns
    /// The index of a name that several columns of the result carry.
    static let ambiguous: Int32 = -1
    /// `PQntuples`.
    let rowCount: Int32

    /// Takes ownership of `handle`; `columns` is its layout, when the caller has one cached.
    init(_ handle: OpaquePointer, columns: PostgresColumns? = nil) {
        self.handle = handle
        rowCount = PQntuples(handle)
        self.columns = columns ?? PostgresColumns(of: handle)
    }

    /// The columns' names (`PQfname`), in the order of the `SELECT`.
    var columnNames: [String] { columns.names }
    /// Column name → index; `ambiguous` for a name of several columns.
    var columnIndexes: [String: Int32] { columns.indexes }
    /// The type OID of each column (`PQftype`), by index.
    var columnTypes: [PostgresDataType] { columns.types }

    deinit {
        PQclear(handle)
    }

    /// Runs `body` with the result while its `PGresult` is still alive (statement errors, setup).
    func withHandle<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        try withExtendedLifetime(self) { () throws(E) -> T in try body(handle) }
    }

    var columnCount: Int { columnTypes.count }

    /// `PQcmdTuples`: rows inserted, updated or deleted (0 for other statements).
    var affectedRows: Int {
        PQcmdTuples(handle).map { Int(String(cString: $0)) ?? 0 } ?? 0
    }

    func isNull(row: Int32, column: Int32) -> Bool {
        PQgetisnull(handle, row, column) == 1
    }

    /// The text-format bytes of a non-NULL value, valid inside `body` only.
    func withValue<T, E: Error>(
        row: Int32, column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T {
        try withExtendedLifetime(self) { () throws(E) -> T in
            let length = Int(PQgetlength(handle, row, column))
            guard let pointer = PQgetvalue(handle, row, column) else {
                return try body(UnsafeBufferPointer(start: nil, count: 0))
            }
            return try pointer.withMemoryRebound(to: UInt8.self, capacity: max(length, 1)) { bytes throws(E) -> T in
                try body(UnsafeBufferPointer(start: bytes, count: length))
            }
        }
    }
}
