/// A use-case error with the two cases every use case that touches storage has: the database
/// is unavailable, or something unexpected happened (with its cause for the log). Conforming
/// gives the one conversion from a `RepositoryError` (a conflict a use case does not handle
/// itself is unexpected too).
package protocol RepositoryBackedError: Error {
    static var unavailable: Self { get }
    static func internalFailure(cause: String) -> Self
}

extension RepositoryBackedError {
    package init(_ error: RepositoryError) {
        self = error == .unavailable ? .unavailable : .internalFailure(cause: error.cause)
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
