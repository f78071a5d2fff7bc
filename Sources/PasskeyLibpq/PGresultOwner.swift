internal import CLibpq

/// The one owner of a libpq `PGresult`: it clears it (`PQclear`) in `deinit`, when the last
/// `PostgresResult` or `PostgresRow` reading it lets go, and nothing else in the package frees
/// one. The column names and types are read once here, so that rows are decoded by name
/// without looking a name up in libpq per row.
///
/// `@unchecked Sendable`: a `PGresult` is immutable once libpq hands it over, and libpq allows
/// reading one from several threads; the handle never leaves this class.
package final class PGresultOwner: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The columns' names (`PQfname`), in the order of the `SELECT`.
    let columnNames: [String]
    /// Column name → index (built once per result); `ambiguous` for a name of several columns.
    let columnIndexes: [String: Int32]
    /// The index of a name that several columns of the result carry.
    static let ambiguous: Int32 = -1
    /// The type OID of each column (`PQftype`), by index.
    let columnTypes: [PostgresDataType]
    /// `PQntuples`.
    let rowCount: Int32

    init(_ handle: OpaquePointer) {
        self.handle = handle
        rowCount = PQntuples(handle)
        let count = PQnfields(handle)
        var names: [String] = []
        var indexes: [String: Int32] = [:]
        var types: [PostgresDataType] = []
        if count > 0 {
            names.reserveCapacity(Int(count))
            indexes.reserveCapacity(Int(count))
            types.reserveCapacity(Int(count))
            for column in 0..<count {
                let name = PQfname(handle, column).map { String(cString: $0) } ?? ""
                names.append(name)
                // A name that appears twice (`SELECT a.id, b.id`) is ambiguous: reading it by name
                // throws (`ambiguous` below), so a join never reads the wrong table's column.
                indexes[name] = indexes[name] == nil ? column : PGresultOwner.ambiguous
                types.append(PostgresDataType(oid: UInt32(PQftype(handle, column))))
            }
        }
        columnNames = names
        columnIndexes = indexes
        columnTypes = types
    }

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
