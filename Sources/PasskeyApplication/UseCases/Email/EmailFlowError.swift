/// Why an email flow of a signed-in account, or a recovery-by-email request, failed. Checked in
/// this order after the token (401) and the recent sign-in (403): mail off (503), the body
/// (400 `invalid-request`), then the flow's own answers.
package enum EmailFlowError: Error, Hashable, Sendable {
    case mailUnavailable
    case invalidRequest(field: String)
    case invalidCode
    case alreadyVerified
    case emailTaken
    case rateLimited(retryAfter: Int)
    /// The account was deleted under the request.
    case unauthorized
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

extension EmailFlowError: RateLimitedError {
    package static var accountGone: Self { .unauthorized }
}
