internal import PasskeyDomain
internal import PasskeyLibpq

/// Reads `accounts` columns (`id, display_name, created_at`) starting at a column offset.
/// The display name was validated on its way in (and the column's CHECK bounds its length), so
/// it is not trimmed and scanned again on every read (a sign-in reads it once; it was 2 % of the
/// server's CPU per ceremony).
enum AccountRow {
    static func decode(_ row: PostgresRow, offset: Int = 0) throws(PostgresError) -> Account {
        Account(
            id: AccountID(try row.uuid(offset)), displayName: DisplayName(trusted: try row.string(offset + 1)),
            createdAt: try row.date(offset + 2))
    }
}
