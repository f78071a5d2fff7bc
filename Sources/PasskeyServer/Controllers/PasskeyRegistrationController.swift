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

    private static let ceremony = "PasskeyRegistration"

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
            do throws(PasskeyRegistrationStartError) {
                let started = try await start.execute(
                    session: session, mode: mode, clientAddress: context.rateLimitKey)
                support.logger.ceremony(
                    Self.ceremony, step: "registration.start", event: "succeeded", requestID: context.requestID)
                let options = started.options
                return support.json(
                    200,
                    RegistrationOptionsResponseBody(
                        challengeID: started.challengeID.description, relyingPartyID: options.relyingPartyID,
                        relyingPartyName: options.relyingPartyName,
                        userID: Base64URL.encode(options.userHandle.bytes), userName: options.userName,
                        displayName: options.userDisplayName, challenge: Base64URL.encode(options.challenge.bytes),
                        expiresAt: started.expiresAt, mode: started.mode.rawValue,
                        publicKey: CreationOptionsJSON(options)))
            } catch {
                let reason: String =
                    switch error {
                    case .conditionalNotAllowed: "conditionalNotAllowed"
                    case .reauthenticationRequired: "reauthenticationRequired"
                    case .rateLimited: "rateLimited"
                    case .unavailable: "databaseUnavailable"
                    case .internalFailure: "internal"
                    }
                support.logger.ceremony(
                    Self.ceremony, step: "registration.start", event: "failed", reason: reason,
                    requestID: context.requestID)
                throw ProblemMapping.problem(error)
            }
        }
    }

    func finish(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            let body = try support.decode(RegistrationFinishRequestBody.self, context)
            let challengeID = ChallengeID(try support.uuid(body.challengeID, field: "challengeID"))
            let parsed = try RegistrationBodyParser(support: support).parse(body)
            do throws(PasskeyRegistrationFinishError) {
                let done = try await finish.execute(
                    session: session, challengeID: challengeID, response: parsed.response, name: parsed.name,
                    residentKey: parsed.residentKey)
                support.logger.ceremony(
                    Self.ceremony, step: "registration.storeCredential", event: "succeeded",
                    reason: done.mode == .conditional ? "conditional" : nil, requestID: context.requestID)
                support.metrics.recordCeremony("passkey_registration", outcome: "succeeded", reason: done.mode.rawValue)
                return support.noContent()
            } catch {
                let (step, reason): (String, String) =
                    switch error {
                    case .invalidRequest: ("registration.parse", "invalidRequest")
                    case .challengeUnavailable: ("registration.consumeChallenge", "challengeUnavailable")
                    case .verificationFailed(let failure): ("registration.verifyCredential", failure.reason)
                    case .credentialExists: ("registration.storeCredential", "credentialExists")
                    case .unavailable: ("registration", "databaseUnavailable")
                    case .internalFailure: ("registration", "internal")
                    }
                support.logger.ceremony(
                    Self.ceremony, step: step, event: "failed", reason: reason, requestID: context.requestID)
                support.metrics.recordCeremony("passkey_registration", outcome: "failed", reason: reason)
                throw ProblemMapping.problem(error)
            }
        }
    }
}
