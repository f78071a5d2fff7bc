package import PasskeyApplication
internal import PasskeyLibpq

/// One open transaction on one connection, and its writers. A statement that fails ends the
/// transaction (PostgreSQL refuses every later statement of it): `run` then refuses at once, so a
/// use case that caught the error cannot go on writing into an aborted transaction.
package final class PostgresTransaction: StoreTransaction {
    let connection: PostgresConnection
    private var failed = false

    init(connection: PostgresConnection) { self.connection = connection }

    package var accounts: any AccountWriter { PostgresAccountWriter(transaction: self) }
    package var passkeys: any PasskeyWriter { PostgresPasskeyWriter(transaction: self) }
    package var sessions: any SessionWriter { PostgresSessionWriter(transaction: self) }
    package var recoveryCodes: any RecoveryCodeWriter { PostgresRecoveryCodeWriter(transaction: self) }
    package var emailCodes: any EmailCodeWriter { PostgresEmailCodeWriter(transaction: self) }
    package var accountRegistrations: any AccountRegistrationWriter {
        PostgresAccountRegistrationWriter(transaction: self)
    }
    package var outbox: any MailOutboxWriter { PostgresMailOutboxWriter(transaction: self) }
    package var events: any AccountEventWriter { PostgresAccountEventWriter(transaction: self) }
    package var signingKeys: any SigningKeyWriter { PostgresSigningKeyWriter(transaction: self) }

    package func relaxDurability() async throws(RepositoryError) {
        try await run { connection async throws(PostgresError) in
            try await connection.execute("SET LOCAL synchronous_commit = off")
        }
    }

    /// The connection's `synchronous_commit` now (what `relaxDurability` changed), for tests.
    package func synchronousCommit() async throws(RepositoryError) -> String {
        try await run { connection async throws(PostgresError) in
            try await connection.query("SELECT current_setting('synchronous_commit') AS value").first?.decode(
                String.self, column: "value") ?? ""
        }
    }

    /// Runs one writer's statements; a `PostgresError` becomes the `RepositoryError` that names
    /// the writer and method (`PostgresAccountWriter.lock(_:)`).
    @discardableResult
    func run<T>(
        file: String = #fileID, function: String = #function,
        _ body: (PostgresConnection) async throws(PostgresError) -> T
    ) async throws(RepositoryError) -> T {
        let operation = PostgresConnectionPool.operation(file: file, function: function)
        guard !failed else {
            throw .failure(
                operation: operation,
                underlying: PostgresError(kind: .statement, diagnostic: "the transaction failed already"))
        }
        do {
            return try await body(connection)
        } catch {
            failed = true
            throw error.repositoryError(operation: operation)
        }
    }

    /// Refuses to report a transaction as done when one of its statements failed and the work
    /// caught that error and returned anyway: COMMIT of an aborted transaction rolls it back
    /// without an error, so the caller would see success for writes that were never stored.
    func requireNoFailedStatement() throws(RepositoryError) {
        guard failed else { return }
        throw .failure(
            operation: "PostgresUnitOfWork.transaction",
            underlying: PostgresError(
                kind: .statement, diagnostic: "the work returned after a failed statement; the transaction rolled back")
        )
    }
}
