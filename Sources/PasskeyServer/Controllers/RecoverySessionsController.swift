internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/recovery/sessions`: sign in with a recovery code (the user's own or the support desk's).
struct RecoverySessionsController: Sendable {
    let authentication: RecoveryAuthenticationUseCase
    let ceremonies: CeremonyRecorder
    let logger: Logger

    func register(in routes: inout Routes) {
        routes.anyone(.post, "/v1/recovery/sessions", signIn)
    }

    @Sendable func signIn(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(RecoverySessionRequestBody.self)
        let (issued, source) = try await ceremonies.record(
            .recoveryAuthentication, step: "recovery.redeem", context, reason: \.1.rawValue
        ) { () throws(RecoveryAuthenticationError) in
            try await authentication.execute(
                email: body.email, code: body.code, clientAddress: context.rateLimitKey,
                origin: request.origin(clientAddress: context.clientAddress))
        }
        // Every recovery sign-in is worth an operator's look; never with the code.
        logger.warning([
            "event": "recovery_sign_in", "account_id": issued.account.id.description, "source": source.rawValue,
            "client": context.clientAddress, "request_id": context.requestID,
        ])
        return try .json(200, SessionResponseBody(issued))
    }
}
