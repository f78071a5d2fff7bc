internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/recovery/email` (mail a sign-in code) and `/v1/recovery/email/sessions` (sign in with
/// it: recovery, and the take-back of a pre-registered account).
struct RecoveryEmailController: Sendable {
    let request: EmailRecoveryRequestUseCase
    let signIn: EmailSignInUseCase
    let logger: Logger

    func register(in routes: inout Routes) {
        routes.anyone(.post, "/v1/recovery/email", requestCode)
        routes.anyone(.post, "/v1/recovery/email/sessions", signInWithCode)
    }

    @Sendable func requestCode(_ http: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        try request.checkEnabled()
        let body = try http.decode(EmailAddressRequestBody.self)
        try await request.execute(email: body.email, clientAddress: context.rateLimitKey)
        return .accepted
    }

    @Sendable func signInWithCode(_ http: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        try signIn.checkEnabled()
        let body = try http.decode(EmailSignInRequestBody.self)
        let origin = RequestOrigin(clientAddress: context.clientAddress, userAgent: http.header("User-Agent"))
        let (issued, reclaimed) = try await signIn.execute(
            email: body.email, code: body.code, origin: origin, clientAddress: context.rateLimitKey)
        // Every email sign-in is recovery, worth an operator's look; never with the code.
        logger.warning([
            "event": "email_sign_in", "account_id": issued.account.id.description,
            "reclaimed": reclaimed ? "true" : "false", "client": context.clientAddress,
            "request_id": context.requestID,
        ])
        return try .json(200, SessionResponseBody(issued))
    }
}
