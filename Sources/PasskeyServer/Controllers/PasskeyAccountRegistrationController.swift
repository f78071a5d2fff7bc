internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// New accounts with a passkey only (form, or the iOS 26 system sheet).
struct PasskeyAccountRegistrationController: Sendable {
    let support: ControllerSupport
    let start: PasskeyAccountRegistrationStartUseCase
    let finish: PasskeyAccountRegistrationFinishUseCase

    func register(in router: inout Router) {
        router.add("POST", "/v1/passkey-accounts/registrations", start(_:))
        router.add("POST", "/v1/passkey-accounts/registrations/finish", finish(_:))
    }

    func start(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body =
                context.request.body.isEmpty
                ? AccountRegistrationStartRequestBody(email: nil, displayName: nil)
                : try support.decode(AccountRegistrationStartRequestBody.self, context)
            return try await support.ceremony(.passkeyAccountRegistration, context) {
                () throws(PasskeyAccountRegistrationStartError) -> ControllerSupport.CeremonySuccess in
                let started = try await start.execute(
                    email: body.email, displayName: body.displayName, clientAddress: context.rateLimitKey)
                let options = started.options
                let response = support.json(
                    200,
                    AccountRegistrationOptionsResponseBody(
                        registrationID: started.registration.id.description, relyingPartyID: options.relyingPartyID,
                        userID: Base64URL.encode(options.userHandle.bytes),
                        challenge: Base64URL.encode(options.challenge.bytes), expiresAt: started.registration.expiresAt,
                        publicKey: CreationOptionsJSON(options)))
                return .init(response: response, step: "accountRegistration.start")
            }
        }
    }

    func finish(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body = try support.decode(RegistrationFinishRequestBody.self, context)
            let registrationID = RegistrationID(try support.uuid(body.registrationID, field: "registrationID"))
            let email = try support.required(body.email, field: "email")
            let displayName = try support.required(body.displayName, field: "displayName")
            let parsed = try RegistrationBodyParser(support: support).parse(body)
            return try await support.ceremony(.passkeyAccountRegistration, context) {
                () throws(PasskeyAccountRegistrationFinishError) -> ControllerSupport.CeremonySuccess in
                let done = try await finish.execute(
                    registrationID: registrationID, email: email, displayName: displayName, response: parsed.response,
                    name: parsed.name, residentKey: parsed.residentKey)
                return .init(
                    response: support.json(201, support.session(done.session)), step: "accountRegistration.complete")
            }
        }
    }
}
