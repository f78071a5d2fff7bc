/// What a repository can report. Use cases branch on which of these happened; a `.failure`
/// carries the adapter's operation and the error it met (for PostgreSQL a `PostgresError`, with
/// SQLSTATE and the database's message), which travel as the use case's
/// `internalFailure(cause:)` to the one place that logs them.
package enum RepositoryError: Error, Sendable {
    /// A uniqueness or reference rule refused the write; says which, in the domain's words.
    case conflict(Conflict)
    /// The write referenced an account that no longer exists: it raced the account's deletion
    /// (between the use case's read and this write). Nothing was written; each use case answers
    /// as if the account had already been gone when the request came.
    case accountGone
    /// The session that authorised the change ended (signed out, ended by the user or by a
    /// take-back) before the change's transaction re-checked it: nothing was written.
    case sessionEnded
    /// The database could not be reached (or no connection became free in time).
    case unavailable
    /// Anything else went wrong: which operation (`PostgresAccountRepository.passwordAccount(normalizedEmail:)`)
    /// and the error it met.
    case failure(operation: String, underlying: any Error & Sendable)
}

/// What a refused write collided with. The adapter maps its own constraint names to these, so
/// nothing above the adapters knows a constraint name.
package enum Conflict: Hashable, Sendable {
    /// Another account has this (normalised) email.
    case emailTaken
    /// This credential ID is registered already (to anyone).
    case credentialExists
    /// Anything else (an unexpected constraint; named for the operator's log).
    case other(String)
}

extension RepositoryError: CustomStringConvertible {
    /// What went wrong, in the underlying error's own words (which, for a `PostgresError`, are
    /// deliberately generic; the server's log asks it for its diagnostic).
    package var description: String {
        switch self {
        case .conflict(let conflict): "unexpected conflict: \(conflict)"
        case .accountGone: "the account was deleted meanwhile"
        case .sessionEnded: "the session ended meanwhile"
        case .unavailable: "database unavailable"
        case .failure(let operation, let underlying): "\(operation): \(underlying)"
        }
    }
}

extension RepositoryError: Hashable {
    /// Failures are equal when they name the same operation and their underlying errors are of
    /// one type and describe themselves alike (errors in general are not `Equatable`).
    package static func == (lhs: RepositoryError, rhs: RepositoryError) -> Bool {
        switch (lhs, rhs) {
        case (.conflict(let left), .conflict(let right)): left == right
        case (.accountGone, .accountGone): true
        case (.sessionEnded, .sessionEnded): true
        case (.unavailable, .unavailable): true
        case (.failure(let leftOperation, let left), .failure(let rightOperation, let right)):
            leftOperation == rightOperation && FailureCause(left) == FailureCause(right)
        case (.conflict, _), (.accountGone, _), (.sessionEnded, _), (.unavailable, _), (.failure, _): false
        }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(String(reflecting: self))
    }
}
