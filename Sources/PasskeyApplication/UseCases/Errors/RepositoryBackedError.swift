/// A use-case error with the two cases every use case that touches storage has: the database
/// is unavailable, or something unexpected happened (with its cause for the log). Conforming
/// gives the one conversion from a `RepositoryError` (a conflict a use case does not handle
/// itself is unexpected too) and `catching`, which runs repository work with that conversion.
package protocol RepositoryBackedError: Error {
    static var unavailable: Self { get }
    static func internalFailure(cause: FailureCause) -> Self
    /// The answer when a write raced the account's deletion (`RepositoryError.accountGone`):
    /// what the request would have got had the account already been gone (contract v3, "Races
    /// with deletion": 401 or 404, never 500). Each use case names its own.
    static var accountGone: Self { get }
    /// The answer when the session that authorised a change ended before the change's
    /// transaction re-checked it (`RepositoryError.sessionEnded`): 401, as for a token that is
    /// no longer valid. By default what `accountGone` answers.
    static var sessionEnded: Self { get }
}

extension RepositoryBackedError {
    package static var sessionEnded: Self { accountGone }
}

extension RepositoryBackedError {
    package init(_ error: RepositoryError) {
        switch error {
        case .unavailable: self = .unavailable
        case .accountGone: self = .accountGone
        case .sessionEnded: self = .sessionEnded
        case .conflict, .failure: self = .internalFailure(cause: FailureCause(error))
        }
    }

    /// Runs repository work, its errors converted to this use case's.
    package static func catching<T>(_ body: () async throws(RepositoryError) -> T) async throws(Self) -> T {
        do {
            return try await body()
        } catch {
            throw Self(error)
        }
    }
}

extension UnitOfWork {
    /// `transaction(_:)`, its errors converted to the use case's error type.
    package func transaction<T: Sendable, Failure: RepositoryBackedError>(
        as _: Failure.Type, _ work: @escaping @Sendable (any StoreTransaction) async throws(RepositoryError) -> T
    ) async throws(Failure) -> T {
        try await Failure.catching { () async throws(RepositoryError) -> T in try await transaction(work) }
    }
}

// Who answers what when the account is deleted under the request. The use cases that create
// the account, or write no row that references one, cannot meet it: for them it is unexpected.

extension FailureCause {
    /// `RepositoryError.accountGone` where a use case cannot meet it: a 500 with this cause.
    static let unexpectedAccountGone = FailureCause(RepositoryError.accountGone)
}

extension PasswordAccountRegistrationError: RepositoryBackedError {
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
extension PasswordAuthenticationError: RepositoryBackedError {
    package static var accountGone: Self { .invalidCredentials }
}
extension PasswordImportError: RepositoryBackedError {
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
extension SignOutError: RepositoryBackedError {
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
extension BearerAuthenticationError: RepositoryBackedError {
    package static var accountGone: Self { .unauthorized }
}
extension PasskeyRegistrationStartError: RepositoryBackedError {
    package static var accountGone: Self { .unauthorized }
}
extension PasskeyRegistrationFinishError: RepositoryBackedError {
    package static var accountGone: Self { .unauthorized }
}
extension PasskeyAccountRegistrationStartError: RepositoryBackedError {
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
extension PasskeyAccountRegistrationFinishError: RepositoryBackedError {
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
extension PasskeyAuthenticationStartError: RepositoryBackedError {
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}
extension PasskeyAuthenticationFinishError: RepositoryBackedError {
    /// The credential went with the account.
    package static var accountGone: Self { .unknownCredential }
}
extension AccountManagementError: RepositoryBackedError {
    package static var accountGone: Self { .notFound }
    package static var sessionEnded: Self { .unauthorized }
}
extension RecoveryAuthenticationError: RepositoryBackedError {
    package static var accountGone: Self { .invalidCredentials }
}
extension OperatorRecoveryCodeError: RepositoryBackedError {
    package static var accountGone: Self { .unknownEmail }
}
