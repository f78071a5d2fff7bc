/// A use-case error with the two cases every use case that touches storage has: the database
/// is unavailable, or something unexpected happened (with its cause for the log). Conforming
/// gives the one conversion from a `RepositoryError` (a conflict a use case does not handle
/// itself is unexpected too) and `catching`, which runs repository work with that conversion.
package protocol RepositoryBackedError: Error {
    static var unavailable: Self { get }
    static func internalFailure(cause: FailureCause) -> Self
}

extension RepositoryBackedError {
    package init(_ error: RepositoryError) {
        if case .unavailable = error {
            self = .unavailable
        } else {
            self = .internalFailure(cause: FailureCause(error))
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

extension PasswordAccountRegistrationError: RepositoryBackedError {}
extension PasswordAuthenticationError: RepositoryBackedError {}
extension PasswordImportError: RepositoryBackedError {}
extension SignOutError: RepositoryBackedError {}
extension BearerAuthenticationError: RepositoryBackedError {}
extension PasskeyRegistrationStartError: RepositoryBackedError {}
extension PasskeyRegistrationFinishError: RepositoryBackedError {}
extension PasskeyAccountRegistrationStartError: RepositoryBackedError {}
extension PasskeyAccountRegistrationFinishError: RepositoryBackedError {}
extension PasskeyAuthenticationStartError: RepositoryBackedError {}
extension PasskeyAuthenticationFinishError: RepositoryBackedError {}
extension AccountManagementError: RepositoryBackedError {}
extension RecoveryAuthenticationError: RepositoryBackedError {}
extension OperatorRecoveryCodeError: RepositoryBackedError {}
