/// The rows a statement returned and how many rows it affected.
package struct PostgresResult: Sendable {
    package let rows: [PostgresRow]
    /// `PQcmdTuples`: rows inserted, updated or deleted (0 for other statements).
    package let affectedRows: Int

    package var first: PostgresRow? { rows.first }
}
