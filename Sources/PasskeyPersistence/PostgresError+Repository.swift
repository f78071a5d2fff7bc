package import PasskeyApplication
package import PasskeyLibpq

extension PostgresError {
    /// How a use case sees this error: a named conflict, an unavailable database, or a failure.
    package var repositoryError: RepositoryError {
        if isUnavailable { return .unavailable }
        if isConstraintViolation, let constraint { return .conflict(constraint: constraint) }
        return .failure(description)
    }
}

extension PostgresConnectionPool {
    /// `withConnection`, with errors as the application's `RepositoryError`.
    @discardableResult
    func run<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async throws(RepositoryError) -> T {
        do {
            return try await withConnection(body)
        } catch {
            throw error.repositoryError
        }
    }

    /// `withTransaction`, with errors as the application's `RepositoryError`.
    @discardableResult
    func runTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async throws(RepositoryError) -> T {
        do {
            return try await withTransaction(body)
        } catch {
            throw error.repositoryError
        }
    }
}
