internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// New accounts with a passkey only (form, or the iOS 26 system sheet).
struct PasskeyAccountRegistrationController: Sendable {
    let support: ControllerSupport
    let start: PasskeyAccountRegistrationStartUseCase
    let finish: PasskeyAccountRegistrationFinishUseCase

    private static let ceremony = "PasskeyAccountRegistration"

    func start(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body =
                context.request.body.isEmpty
                ? AccountRegistrationStartRequestBody(email: nil, displayName: nil)
                : try support.decode(AccountRegistrationStartRequestBody.self, context)
            do throws(PasskeyAccountRegistrationStartError) {
                let started = try await start.execute(
                    email: body.email, displayName: body.displayName, clientAddress: context.rateLimitKey)
                support.logger.ceremony(
                    Self.ceremony, step: "accountRegistration.start", event: "succeeded", requestID: context.requestID)
                let options = started.options
                return support.json(
                    200,
                    AccountRegistrationOptionsResponseBody(
                        registrationID: started.registration.id.description, relyingPartyID: options.relyingPartyID,
                        userID: Base64URL.encode(options.userHandle.bytes),
                        challenge: Base64URL.encode(options.challenge.bytes), expiresAt: started.registration.expiresAt,
                        publicKey: CreationOptionsJSON(options)))
            } catch {
                throw ProblemMapping.problem(error)
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
            do throws(PasskeyAccountRegistrationFinishError) {
                let done = try await finish.execute(
                    registrationID: registrationID, email: email, displayName: displayName, response: parsed.response,
                    name: parsed.name, residentKey: parsed.residentKey)
                support.logger.ceremony(
                    Self.ceremony, step: "accountRegistration.complete", event: "succeeded",
                    requestID: context.requestID)
                support.metrics.recordCeremony("passkey_account_registration", outcome: "succeeded")
                return support.json(201, support.session(done.session))
            } catch {
                let (step, reason): (String, String) =
                    switch error {
                    case .invalidRequest: ("accountRegistration.parse", "invalidRequest")
                    case .registrationUnavailable: ("accountRegistration.load", "registrationUnavailable")
                    case .registrationMismatch: ("accountRegistration.load", "registrationMismatch")
                    case .verificationFailed(let failure): ("accountRegistration.verifyCredential", failure.reason)
                    case .emailTaken: ("accountRegistration.complete", "emailTaken")
                    case .credentialExists: ("accountRegistration.complete", "credentialExists")
                    case .unavailable: ("accountRegistration", "databaseUnavailable")
                    case .internalFailure: ("accountRegistration", "internal")
                    }
                support.logger.ceremony(
                    Self.ceremony, step: step, event: "failed", reason: reason, requestID: context.requestID)
                support.metrics.recordCeremony("passkey_account_registration", outcome: "failed", reason: reason)
                throw ProblemMapping.problem(error)
            }
        }
    }
}
