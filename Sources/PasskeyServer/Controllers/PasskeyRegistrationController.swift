internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// Adding a passkey to the signed-in account (modal, or conditional = Automatic Passkey Upgrade).
struct PasskeyRegistrationController: Sendable {
    let support: ControllerSupport
    let start: PasskeyRegistrationStartUseCase
    let finish: PasskeyRegistrationFinishUseCase
    let relyingPartyName: String

    func register(in router: inout Router) {
        router.add("POST", "/v1/passkeys/registrations", start(_:))
        router.add("POST", "/v1/passkeys/registrations/finish", finish(_:))
    }

    func start(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            let body =
                context.request.body.isEmpty
                ? RegistrationStartRequestBody(mode: nil)
                : try support.decode(RegistrationStartRequestBody.self, context)
            let mode: RegistrationMode
            switch body.mode {
            case nil, "modal": mode = .modal
            case "conditional": mode = .conditional
            default: throw Problem.invalidRequest("mode must be modal or conditional.")
            }
            return try await support.ceremony(.passkeyRegistration, context) {
                () throws(PasskeyRegistrationStartError) -> ControllerSupport.CeremonySuccess in
                let started = try await start.execute(session: session, mode: mode, clientAddress: context.rateLimitKey)
                let options = started.options
                let response = support.json(
                    200,
                    RegistrationOptionsResponseBody(
                        challengeID: started.challengeID.description, relyingPartyID: options.relyingPartyID,
                        relyingPartyName: options.relyingPartyName,
                        userID: Base64URL.encode(options.userHandle.bytes), userName: options.userName,
                        displayName: options.userDisplayName, challenge: Base64URL.encode(options.challenge.bytes),
                        expiresAt: started.expiresAt, mode: started.mode.rawValue,
                        publicKey: CreationOptionsJSON(options)))
                return .init(response: response, step: "registration.start", reason: started.mode.rawValue)
            }
        }
    }

    func finish(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            let body = try support.decode(RegistrationFinishRequestBody.self, context)
            let challengeID = ChallengeID(try support.uuid(body.challengeID, field: "challengeID"))
            let parsed = try RegistrationBodyParser(support: support).parse(body)
            return try await support.ceremony(.passkeyRegistration, context) {
                () throws(PasskeyRegistrationFinishError) -> ControllerSupport.CeremonySuccess in
                let done = try await finish.execute(
                    session: session, challengeID: challengeID, response: parsed.response, name: parsed.name,
                    residentKey: parsed.residentKey)
                return .init(
                    response: support.noContent(), step: "registration.storeCredential", reason: done.mode.rawValue)
            }
        }
    }
}
