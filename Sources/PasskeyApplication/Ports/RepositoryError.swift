/// What a repository can report. Use cases branch on which of these happened; a `.failure`'s
/// text (the adapter's operation, SQLSTATE and the database's message) travels with the use
/// case's `internalFailure(cause:)` to the one place that logs it (`ControllerSupport.respond`).
package enum RepositoryError: Error, Hashable, Sendable {
    /// A unique or foreign-key constraint refused the write; names the constraint.
    case conflict(constraint: String)
    /// The database could not be reached (or no connection became free in time).
    case unavailable
    /// Anything else went wrong; the adapter has the details.
    case failure(String)
}

/// Names of the constraints use cases react to (they are declared in Migrations/).
package enum ConstraintName {
    package static let normalizedEmail = "account_emails_normalized_email_key"
    package static let accountEmail = "account_emails_account_id_key"
    package static let credentialID = "passkey_credentials_pkey"
    package static let accountID = "accounts_pkey"
}

extension RepositoryError {
    /// What went wrong, for the operator's log when a use case gives up (`internalFailure`):
    /// the adapter's operation and cause (SQLSTATE and the database's message), never data.
    package var cause: String {
        switch self {
        case .conflict(let constraint): "unexpected conflict on \(constraint)"
        case .unavailable: "database unavailable"
        case .failure(let text): text
        }
    }
}
