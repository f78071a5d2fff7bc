/// Why a management request on the signed-in account failed.
package enum AccountManagementError: Error, Hashable, Sendable {
    case notFound
    /// Deleting it would leave the account with no way in.
    case lastCredential
    /// Removing the password needs a passkey that has signed in at least once.
    case passkeyNotYetUsed
    case unavailable
    case internalFailure

    init(_ error: RepositoryError) {
        self = error == .unavailable ? .unavailable : .internalFailure
    }
}
