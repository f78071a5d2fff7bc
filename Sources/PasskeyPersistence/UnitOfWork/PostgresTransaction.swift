internal import Foundation
package import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// One open transaction on one connection, and its writers. A statement that fails ends the
/// transaction (PostgreSQL refuses every later statement of it): `run` then refuses at once, so a
/// use case that caught the error cannot go on writing into an aborted transaction.
package final class PostgresTransaction: StoreTransaction {
    let connection: PostgresConnection
    private var failed = false
    /// (v4) The accounts whose credentials this transaction changed, and each one's migration
    /// stage before the first change (nil: created in this transaction, so no stage.changed).
    private var stagesBefore: [AccountID: MigrationStage?] = [:]
    /// (v4) The last event this transaction recorded: stage.changed comes from where it came.
    private var lastEvent: AccountEvent?

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

    // MARK: (v4) stage.changed

    /// SQL of an account's migration stage now (`MigrationStage`'s rule), for `a.id`.
    static let stageOfAccount: StaticString = """
        CASE WHEN EXISTS (SELECT 1 FROM password_credentials p WHERE p.account_id = a.id)
             THEN CASE WHEN EXISTS (SELECT 1 FROM passkey_credentials c WHERE c.account_id = a.id)
                       THEN 'password-and-passkey' ELSE 'password-only' END
             ELSE CASE WHEN EXISTS (SELECT 1 FROM passkey_credentials c WHERE c.account_id = a.id)
                       THEN 'passkey-only' ELSE 'none' END
        END
        """

    /// The account was created in this transaction: its first stage is no stage.changed.
    func noteCreated(_ id: AccountID) {
        stagesBefore[id] = .some(nil)
    }

    /// Called by a writer before it changes a password or passkey of `id`: the first time, reads
    /// the stage the account is in before the change (one statement, in credential-changing
    /// transactions only).
    func noteCredentialChange(_ id: AccountID) async throws(RepositoryError) {
        guard stagesBefore[id] == nil else { return }
        let stage = try await run { connection async throws(PostgresError) -> MigrationStage? in
            let text = try await connection.query(
                "SELECT \(unescaped: Self.stageOfAccount) AS stage FROM accounts a WHERE a.id = \(id.uuid)"
            ).first?.decode(String.self, column: "stage")
            return text.flatMap(MigrationStage.init(rawValue:))
        }
        stagesBefore[id] = .some(stage)
    }

    func noteEvent(_ event: AccountEvent) {
        if !event.kind.isWebhookOnly { lastEvent = event }
    }

    /// Before COMMIT: a stage.changed event, with its webhook deliveries, for each existing
    /// account whose stage the transaction changed (none for an account created or deleted in
    /// it), from where the transaction's last event came.
    func recordStageChanges() async throws(RepositoryError) {
        for (accountID, before) in stagesBefore {
            guard let before else { continue }
            let origin = lastEvent
            let occurredAt = origin?.occurredAt ?? Date()
            // (v4) After an operator's action, the operator, and no address or user agent.
            let clientAddress: String? = origin.map(\.clientAddress) ?? "command line"
            let userAgent: String? = origin.map(\.userAgent) ?? ""
            let actor = origin?.actor?.value
            let sessionID = origin?.sessionID
            try await run { connection async throws(PostgresError) in
                try await connection.query(
                    """
                    WITH webhook_event AS (
                        INSERT INTO webhook_events
                            (id, account_id, kind, occurred_at, client_address, user_agent, session_id, actor,
                             stage_from, stage_to)
                        SELECT gen_random_uuid(), a.id, 'stage.changed', \(occurredAt), \(clientAddress), \(userAgent),
                               \(sessionID?.uuid), \(actor), \(before.rawValue), s.stage
                        FROM accounts a CROSS JOIN LATERAL (SELECT \(unescaped: Self.stageOfAccount) AS stage) s
                        WHERE a.id = \(accountID.uuid) AND s.stage <> \(before.rawValue)
                        RETURNING written_by, position, account_id, kind
                    ), \(fragment: AccountEventStatement.deliveries) SELECT 1
                    """)
            }
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
