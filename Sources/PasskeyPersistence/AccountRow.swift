internal import PasskeyDomain
internal import PasskeyLibpq

/// Reads `accounts` columns (`id, display_name, created_at`) starting at a column offset.
enum AccountRow {
    static func decode(_ row: PostgresRow, offset: Int = 0) throws(PostgresError) -> Account {
        guard let name = DisplayName(try row.string(offset + 1)) else {
            throw PostgresError(kind: .decoding, diagnostic: "accounts.display_name out of range")
        }
        return Account(id: AccountID(try row.uuid(offset)), displayName: name, createdAt: try row.date(offset + 2))
    }
}
