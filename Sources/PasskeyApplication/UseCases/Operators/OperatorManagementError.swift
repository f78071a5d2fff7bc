/// Why `passkey-server operators add|list|remove` refused.
package enum OperatorManagementError: Error, Hashable, Sendable {
    /// The name or role is not acceptable; the message says which.
    case invalidRequest(String)
    /// An operator of this name exists already.
    case nameTaken
    /// No operator has this name.
    case unknownOperator
    case unavailable
    case internalFailure(cause: FailureCause)
}

extension OperatorManagementError: RepositoryBackedError {
    /// Operators belong to no account.
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
