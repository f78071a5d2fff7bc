internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/passkey-accounts/registrations`: a new account with a passkey only (form, or the iOS 26
/// system sheet), start and finish.
struct PasskeyAccountRegistrationsController: Sendable {
    let start: PasskeyAccountRegistrationStartUseCase
    let finish: PasskeyAccountRegistrationFinishUseCase

    func register(in routes: inout Routes) {
        routes.anyone(
            .post, "/v1/passkey-accounts/registrations",
            ceremony: (.passkeyAccountRegistration, "accountRegistration.start"), start(_:context:))
        routes.anyone(
            .post, "/v1/passkey-accounts/registrations/finish",
            ceremony: (.passkeyAccountRegistration, "accountRegistration.complete"), finish(_:context:))
    }

    @Sendable func start(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(
            AccountRegistrationStartRequestBody.self, orIfEmpty: .init(email: nil, displayName: nil))
        let started = try await context.execute { () throws(PasskeyAccountRegistrationStartError) in
            try await start.execute(
                email: body.email, displayName: body.displayName, clientAddress: context.rateLimitKey)
        }
        return try .json(200, AccountRegistrationOptionsResponseBody(started))
    }

    @Sendable func finish(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(RegistrationFinishRequestBody.self)
        let registrationID = RegistrationID(try BodyField.uuid(body.registrationID, field: "registrationID"))
        let email = try BodyField.required(body.email, field: "email")
        let displayName = try BodyField.required(body.displayName, field: "displayName")
        let parsed = try RegistrationBodyParser.parse(body)
        let done = try await context.execute { () throws(PasskeyAccountRegistrationFinishError) in
            try await finish.execute(
                registrationID: registrationID, email: email, displayName: displayName, response: parsed.response,
                name: parsed.name, residentKey: parsed.residentKey, clientAddress: context.rateLimitKey,
                language: context.mailLanguage, origin: context.origin)
        }
        return try .json(201, SessionResponseBody(done.session))
    }
}
