internal import Foundation
internal import PasskeyDomain
internal import PasskeyLibpq

/// The `accounts` columns of a row, selected as `\(unescaped: AccountRow.columns)` from
/// `accounts a` and decoded by those names, which no other table's columns share in a join
/// (`account_id`, `account_display_name`, `account_created_at`).
/// The display name was validated on its way in (and the column's CHECK bounds its length), so
/// it is not trimmed and scanned again on every read (a sign-in reads it once; it was 2 % of the
/// server's CPU per ceremony).
enum AccountRow {
    /// Use as `SELECT \(unescaped: AccountRow.columns) FROM accounts a` (or `RETURNING` it).
    static let columns: StaticString = """
        a.id AS account_id, a.display_name AS account_display_name, a.created_at AS account_created_at
        """

    static func decode(_ row: PostgresRow) throws(PostgresError) -> Account {
        try account(row, id: try row.decode(UUID.self, column: "account_id"))
    }

    /// The account, or nil when the row has none (`account_id` is NULL, as in a `LEFT JOIN`).
    static func decodeIfPresent(_ row: PostgresRow) throws(PostgresError) -> Account? {
        guard let id = try row.decode(UUID?.self, column: "account_id") else { return nil }
        return try account(row, id: id)
    }

    private static func account(_ row: PostgresRow, id: UUID) throws(PostgresError) -> Account {
        Account(
            id: AccountID(id), displayName: DisplayName(trusted: try row.decode(column: "account_display_name")),
            createdAt: try row.decode(column: "account_created_at"))
    }
}
