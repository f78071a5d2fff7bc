internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/recovery/sessions`: sign in with a recovery code (the user's own or the support desk's).
struct RecoverySessionsController: Sendable {
    let authentication: RecoveryAuthenticationUseCase

    func register(in routes: inout Routes) {
        routes.anyone(.post, "/v1/recovery/sessions", ceremony: (.recoveryAuthentication, "recovery.redeem"), signIn)
    }

    @Sendable func signIn(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(RecoverySessionRequestBody.self)
        let done = try await context.execute { () throws(RecoveryAuthenticationError) in
            try await authentication.execute(
                email: body.email, code: body.code, clientAddress: context.rateLimitKey, origin: context.origin)
        }
        return try .json(200, SessionResponseBody(done.session))
    }
}
