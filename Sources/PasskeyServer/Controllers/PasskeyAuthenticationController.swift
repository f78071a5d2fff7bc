internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// The one passkey sign-in flow (discoverable credentials).
struct PasskeyAuthenticationController: Sendable {
    let support: ControllerSupport
    let start: PasskeyAuthenticationStartUseCase
    let finish: PasskeyAuthenticationFinishUseCase

    private static let ceremony = "PasskeyAuthentication"

    func start(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            do throws(PasskeyAuthenticationStartError) {
                let started = try await start.execute(clientAddress: context.rateLimitKey)
                let options = started.options
                return support.json(
                    200,
                    AuthenticationOptionsResponseBody(
                        challengeID: started.challengeID.description, relyingPartyID: options.relyingPartyID,
                        challenge: Base64URL.encode(options.challenge.bytes), expiresAt: started.expiresAt,
                        publicKey: RequestOptionsJSON(options)))
            } catch {
                throw ProblemMapping.problem(error)
            }
        }
    }

    func finish(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body = try support.decode(AuthenticationFinishRequestBody.self, context)
            let challengeID = ChallengeID(try support.uuid(body.challengeID, field: "challengeID"))
            let response = try parse(body)
            do throws(PasskeyAuthenticationFinishError) {
                let done = try await finish.execute(challengeID: challengeID, response: response)
                if done.cloneWarning {
                    support.logger.ceremony(
                        Self.ceremony, step: "authentication.verifyAssertion", event: "warning",
                        reason: "signCountNotIncreasedSynced", requestID: context.requestID, level: .warning)
                    support.metrics.recordCeremony("passkey_authentication", outcome: "warning", reason: "cloneWarning")
                }
                support.logger.ceremony(
                    Self.ceremony, step: "authentication.recordAssertion", event: "succeeded",
                    requestID: context.requestID)
                support.metrics.recordCeremony("passkey_authentication", outcome: "succeeded")
                return support.json(200, support.session(done.session))
            } catch {
                let (step, reason): (String, String) =
                    switch error {
                    case .invalidRequest: ("authentication.parse", "invalidRequest")
                    case .challengeUnavailable: ("authentication.consumeChallenge", "challengeUnavailable")
                    case .unknownCredential: ("authentication.lookupCredential", "unknownCredential")
                    case .authenticationFailed(let failure): ("authentication.verifyAssertion", failure.reason)
                    case .unavailable: ("authentication", "databaseUnavailable")
                    case .internalFailure: ("authentication", "internal")
                    }
                support.logger.ceremony(
                    Self.ceremony, step: step, event: "failed", reason: reason, requestID: context.requestID)
                support.metrics.recordCeremony("passkey_authentication", outcome: "failed", reason: reason)
                throw ProblemMapping.problem(error)
            }
        }
    }

    private func parse(_ body: AuthenticationFinishRequestBody) throws(Problem) -> AuthenticationResponse {
        let fields = try body.credentialFields()
        let credentialID = try fields.required(fields.credentialID, "credentialID")
        let clientDataJSON = try fields.required(fields.clientDataJSON, "clientDataJSON")
        let authenticatorData = try fields.required(fields.authenticatorData, "authenticatorData")
        let signature = try fields.required(fields.signature, "signature")
        let userHandle = fields.userHandle
        let id = try support.bytes(credentialID, field: "credentialID")
        guard CredentialID(bytes: id) != nil else {
            throw Problem.invalidRequest("credentialID must be 1 to 1023 bytes.")
        }
        return AuthenticationResponse(
            credentialID: id, clientDataJSON: try support.bytes(clientDataJSON, field: "clientDataJSON"),
            authenticatorData: try support.bytes(authenticatorData, field: "authenticatorData"),
            signature: try support.bytes(signature, field: "signature"),
            userHandle: try userHandle.map { (value: String) throws(Problem) -> [UInt8] in
                try support.bytes(value, field: "userHandle")
            })
    }
}
