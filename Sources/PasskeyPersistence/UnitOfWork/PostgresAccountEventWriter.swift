internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `AccountEventWriter` in SQL: `account_events`, through `AccountEventStatement`, the one place
/// its INSERT is written.
struct PostgresAccountEventWriter: AccountEventWriter {
    let transaction: PostgresTransaction

    func record(_ event: AccountEvent) async throws(RepositoryError) {
        transaction.noteEvent(event)
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(AccountEventStatement.insert(event))
        }
    }
}
