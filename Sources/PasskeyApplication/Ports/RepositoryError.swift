/// What a repository can report. Use cases branch on which of these happened; a `.failure`'s
/// text (the adapter's operation, SQLSTATE and the database's message) travels with the use
/// case's `internalFailure(cause:)` to the one place that logs it (`ControllerSupport.respond`).
package enum RepositoryError: Error, Hashable, Sendable {
    /// A uniqueness or reference rule refused the write; says which, in the domain's words.
    case conflict(Conflict)
    /// The database could not be reached (or no connection became free in time).
    case unavailable
    /// Anything else went wrong; the adapter has the details.
    case failure(String)
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

extension RepositoryError {
    /// What went wrong, for the operator's log when a use case gives up (`internalFailure`):
    /// the adapter's operation and cause (SQLSTATE and the database's message), never data.
    package var cause: String {
        switch self {
        case .conflict(let conflict): "unexpected conflict: \(conflict)"
        case .unavailable: "database unavailable"
        case .failure(let text): text
        }
    }
}
