internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/sessions`: sign in with a password, and `/v1/sessions/current`: sign out.
struct SessionsController: Sendable {
    let authentication: PasswordAuthenticationUseCase
    let signOut: SignOutUseCase

    func register(in routes: inout Routes) {
        routes.anyone(.post, "/v1/sessions", ceremony: (.passwordAuthentication, "password.verify"), signIn)
        routes.signedIn(.delete, "/v1/sessions/current", signOut(_:context:))
    }

    @Sendable func signIn(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(PasswordSessionRequestBody.self)
        let done = try await context.execute { () throws(PasswordAuthenticationError) in
            try await authentication.execute(
                email: body.email, password: body.password, clientAddress: context.rateLimitKey,
                origin: context.origin)
        }
        return try .json(200, SessionResponseBody(done.session))
    }

    @Sendable func signOut(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try await context.execute { () throws(SignOutError) in
            try await signOut.execute(session: context.session, origin: context.origin)
        }
        return .noContent
    }
}
