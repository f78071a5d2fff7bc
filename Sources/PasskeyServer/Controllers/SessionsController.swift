internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/sessions`: sign in with a password, and `/v1/sessions/current`: sign out.
struct SessionsController: Sendable {
    let authentication: PasswordAuthenticationUseCase
    let signOut: SignOutUseCase
    let ceremonies: CeremonyRecorder
    let logger: Logger

    func register(in routes: inout Routes) {
        routes.anyone(.post, "/v1/sessions", signIn)
        routes.signedIn(.delete, "/v1/sessions/current", signOut(_:context:))
    }

    @Sendable func signIn(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(PasswordSessionRequestBody.self)
        let origin = request.origin(clientAddress: context.clientAddress)
        let done = try await ceremonies.record(.passwordAuthentication, step: "password.verify", context) {
            () throws(PasswordAuthenticationError) in
            try await authentication.execute(
                email: body.email, password: body.password, clientAddress: context.rateLimitKey, origin: origin)
        }
        if let failure = done.rehashFailure {
            // The sign-in stands; the hash is upgraded at the next one. Worth an operator's look.
            logger.warning([
                "event": "password_rehash_failed", "request_id": context.requestID, "cause": "\(failure)",
            ])
        }
        return try .json(200, SessionResponseBody(done.session))
    }

    @Sendable func signOut(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try await signOut.execute(session: context.session)
        return .noContent
    }
}
