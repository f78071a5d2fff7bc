internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/recovery/email` (mail a sign-in code) and `/v1/recovery/email/sessions` (sign in with
/// it: recovery, and the take-back of a pre-registered account). Mail off: 503
/// `mail-unavailable` before the body is read.
struct RecoveryEmailController: Sendable {
    let request: RecoveryEmailRequestUseCase
    let signIn: RecoveryEmailAuthenticationUseCase

    func register(in routes: inout Routes) {
        let mail: Routes.FeatureGate = { [request] in try request.checkEnabled() }
        routes.anyone(.post, "/v1/recovery/email", feature: mail, requestCode)
        routes.anyone(.post, "/v1/recovery/email/sessions", feature: mail, signInWithCode)
    }

    @Sendable func requestCode(_ http: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try http.decode(EmailAddressRequestBody.self)
        try await context.execute { () throws(EmailFlowError) in
            try await request.execute(email: body.email, clientAddress: context.rateLimitKey)
        }
        return .accepted
    }

    @Sendable func signInWithCode(_ http: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try http.decode(EmailSignInRequestBody.self)
        let done = try await context.execute { () throws(RecoveryEmailAuthenticationError) in
            try await signIn.execute(
                email: body.email, code: body.code, origin: context.origin, clientAddress: context.rateLimitKey)
        }
        return try .json(200, SessionResponseBody(done.session))
    }
}
