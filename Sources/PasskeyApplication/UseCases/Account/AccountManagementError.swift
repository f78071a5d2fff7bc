/// Why a management request on the signed-in account failed.
package enum AccountManagementError: Error, Hashable, Sendable {
    case notFound
    /// Deleting it would leave the account with no way in.
    case lastCredential
    /// Removing the password needs a passkey that has signed in at least once.
    case passkeyNotYetUsed
    /// Removing the password needs an unused code of the user's own recovery set.
    case recoveryNotSetUp
    /// The session that made the request ended before the change was made (a take-back, a
    /// sign-out elsewhere): as for a token that is no longer valid.
    case unauthorized
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}
