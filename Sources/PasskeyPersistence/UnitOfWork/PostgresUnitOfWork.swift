package import PasskeyApplication
package import PasskeyLibpq

/// The unit of work on PostgreSQL: one connection from the pool, BEGIN, the use case's `work`
/// through `PostgresTransaction`'s writers, COMMIT (or ROLLBACK when `work` throws).
package struct PostgresUnitOfWork: UnitOfWork {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    package func transaction<T: Sendable>(
        _ work: @escaping @Sendable (any StoreTransaction) async throws(RepositoryError) -> T
    ) async throws(RepositoryError) -> T {
        let outcome: Result<T, RepositoryError>
        do throws(PostgresError) {
            outcome = try await pool.withConnection { connection async throws(PostgresError) in
                let transaction = PostgresTransaction(connection: connection)
                do throws(RepositoryError) {
                    return .success(
                        try await connection.transaction(
                            { () async throws(RepositoryError) -> T in
                                let value = try await work(transaction)
                                try transaction.requireNoFailedStatement()
                                try await transaction.recordStageChanges()
                                return value
                            },
                            failure: { $0.repositoryError(operation: "PostgresUnitOfWork.transaction") }))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw error.repositoryError(operation: "PostgresUnitOfWork.transaction")
        }
        return try outcome.get()
    }
}
