/// The rows a statement returned and how many rows it affected, read from one `PGresult`
/// that `PGresultOwner` frees once neither this result nor any of its rows is held.
package struct PostgresResult: Sendable {
    package let rows: [PostgresRow]
    /// `PQcmdTuples`: rows inserted, updated or deleted (0 for other statements).
    package let affectedRows: Int
    /// The owner of the `PGresult` (rows keep it alive too).
    package let owner: PGresultOwner

    init(_ owner: PGresultOwner) {
        self.owner = owner
        rows = (0..<owner.rowCount).map { PostgresRow(result: owner, index: $0) }
        affectedRows = owner.affectedRows
    }

    package var first: PostgresRow? { rows.first }

    /// The columns' names, in the order of the `SELECT`.
    package var columnNames: [String] { owner.columnNames }
}
