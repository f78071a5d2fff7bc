internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/passkeys/registrations`: add a passkey to the signed-in account (modal, or conditional =
/// Automatic Passkey Upgrade), start and finish.
struct PasskeyRegistrationsController: Sendable {
    let start: PasskeyRegistrationStartUseCase
    let finish: PasskeyRegistrationFinishUseCase

    func register(in routes: inout Routes) {
        // Signed in, not recent sign-in: only `modal` needs one, which the use case decides.
        routes.signedIn(
            .post, "/v1/passkeys/registrations", ceremony: (.passkeyRegistration, "registration.start"),
            start(_:context:))
        routes.signedIn(
            .post, "/v1/passkeys/registrations/finish",
            ceremony: (.passkeyRegistration, "registration.storeCredential"), finish(_:context:))
    }

    @Sendable func start(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let body = try request.decode(RegistrationStartRequestBody.self, orIfEmpty: .init(mode: nil))
        let mode: RegistrationMode
        switch body.mode {
        case nil, "modal": mode = .modal
        case "conditional": mode = .conditional
        default: throw Problem.invalidRequest("mode must be modal or conditional.")
        }
        let started = try await context.execute { () throws(PasskeyRegistrationStartError) in
            try await start.execute(session: context.session, mode: mode, clientAddress: context.rateLimitKey)
        }
        return try .json(200, RegistrationOptionsResponseBody(started))
    }

    @Sendable func finish(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let body = try request.decode(RegistrationFinishRequestBody.self)
        let challengeID = ChallengeID(try BodyField.uuid(body.challengeID, field: "challengeID"))
        let parsed = try RegistrationBodyParser.parse(body)
        _ = try await context.execute { () throws(PasskeyRegistrationFinishError) in
            try await finish.execute(
                session: context.session, challengeID: challengeID, response: parsed.response, name: parsed.name,
                residentKey: parsed.residentKey, origin: context.origin)
        }
        return .noContent
    }
}
