/// (v4) Why a support desk request on an account failed (spec v4, "Support desk").
package enum SupportDeskError: Error, Hashable, Sendable {
    /// A malformed input (400 `invalid-request`); `detail` names it.
    case invalidRequest(String)
    /// No such account (or, for a passkey, no such passkey of it): 404.
    case notFound
    /// Locking an account that is locked already (409 `account-locked`).
    case alreadyLocked
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

extension SupportDeskError: RepositoryBackedError {
    /// The account was deleted under the request: as if it had never been found.
    package static var accountGone: Self { .notFound }
}
