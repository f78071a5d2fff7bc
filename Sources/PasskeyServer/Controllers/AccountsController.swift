internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/accounts`: a password sign-up (the existing users' way in).
struct AccountsController: Sendable {
    let registration: PasswordAccountRegistrationUseCase

    func register(in routes: inout Routes) {
        routes.anyone(.post, "/v1/accounts", createAccount)
    }

    @Sendable func createAccount(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(PasswordAccountRequestBody.self)
        let account = try await context.execute { () throws(PasswordAccountRegistrationError) in
            try await registration.execute(
                email: body.email, displayName: body.displayName, password: body.password,
                clientAddress: context.rateLimitKey, language: context.mailLanguage, origin: context.origin)
        }
        return try .json(201, AccountCreatedResponseBody(account))
    }
}
