package import PasskeyApplication

/// The error a fake's scripted repository failure carries, standing for the adapter's own error
/// (a `PostgresError` in production): `RepositoryError.scripted("deleteAccount")`.
package struct ScriptedFailure: Error, Hashable, Sendable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

extension RepositoryError {
    /// A failure of `operation` whose underlying error is `ScriptedFailure("boom")`.
    package static func scripted(_ operation: String) -> RepositoryError {
        .failure(operation: operation, underlying: ScriptedFailure("boom"))
    }
}

extension FailureCause {
    /// The cause a use case passes on for `RepositoryError.scripted(operation)`.
    package static func scripted(_ operation: String) -> FailureCause {
        FailureCause(RepositoryError.scripted(operation))
    }
}
