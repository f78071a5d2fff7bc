package import PasskeyApplication
package import PasskeyLibpq

extension PostgresError {
    /// How a use case sees this error: a named conflict, an unavailable database, or a failure
    /// that names the repository operation and carries this error (its `logDescription`, with
    /// SQLSTATE and the database's message, is for the operator's log).
    package func repositoryError(operation: String) -> RepositoryError {
        if isUnavailable { return .unavailable }
        // A row that references an account whose deletion committed first (SQLSTATE 23503,
        // foreign_key_violation, on one of the account_id references).
        if sqlState == "23503", let constraint, Self.accountReferences.contains(constraint) { return .accountGone }
        // The constraint names are declared in Migrations/0001_initial_schema.sql.
        if isConstraintViolation, let constraint {
            switch constraint {
            case "account_emails_normalized_email_key": return .conflict(.emailTaken)
            case "passkey_credentials_pkey": return .conflict(.credentialExists)
            default: return .conflict(.other(constraint))
            }
        }
        return .failure(operation: operation, underlying: self)
    }

    /// Every foreign key onto `accounts (id)` (PostgreSQL's default names, from the migrations).
    static let accountReferences: Set<String> = [
        "account_emails_account_id_fkey", "password_credentials_account_id_fkey",
        "passkey_credentials_account_id_fkey", "authentication_sessions_account_id_fkey",
        "passkey_registration_challenges_account_id_fkey", "recovery_codes_account_id_fkey",
        "email_codes_account_id_fkey", "account_events_account_id_fkey",
    ]
}

extension PostgresConnectionPool {
    /// `withConnection`, with errors as the application's `RepositoryError`.
    @discardableResult
    func run<T: Sendable>(
        file: String = #fileID, function: String = #function,
        _ body: @escaping @Sendable (PostgresConnection) async throws(PostgresError) -> T
    ) async throws(RepositoryError) -> T {
        do {
            return try await withConnection(body)
        } catch {
            throw error.repositoryError(operation: Self.operation(file: file, function: function))
        }
    }

    /// `withTransaction`, with errors as the application's `RepositoryError`.
    @discardableResult
    func runTransaction<T: Sendable>(
        file: String = #fileID, function: String = #function,
        _ body: @escaping @Sendable (PostgresConnection) async throws(PostgresError) -> T
    ) async throws(RepositoryError) -> T {
        do {
            return try await withTransaction(body)
        } catch {
            throw error.repositoryError(operation: Self.operation(file: file, function: function))
        }
    }

    /// `PostgresAccountRepository.passwordAccount(normalizedEmail:)` from `#fileID` and `#function`.
    static func operation(file: String, function: String) -> String {
        let name = file.split(separator: "/").last.map { $0.hasSuffix(".swift") ? $0.dropLast(6) : $0 } ?? ""
        return "\(name).\(function)"
    }
}
