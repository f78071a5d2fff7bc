internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// The one passkey sign-in flow (discoverable credentials).
struct PasskeyAuthenticationController: Sendable {
    let support: ControllerSupport
    let start: PasskeyAuthenticationStartUseCase
    let finish: PasskeyAuthenticationFinishUseCase

    func register(in router: inout Router) {
        router.add("POST", "/v1/passkeys/authentications", start(_:))
        router.add("POST", "/v1/passkeys/authentications/finish", finish(_:))
    }

    func start(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            try await support.ceremony(.passkeyAuthentication, context) {
                () throws(PasskeyAuthenticationStartError) -> ControllerSupport.CeremonySuccess in
                let started = try await start.execute(clientAddress: context.rateLimitKey)
                let options = started.options
                let response = support.json(
                    200,
                    AuthenticationOptionsResponseBody(
                        challengeID: started.challengeID.description, relyingPartyID: options.relyingPartyID,
                        challenge: Base64URL.encode(options.challenge.bytes), expiresAt: started.expiresAt,
                        publicKey: RequestOptionsJSON(options)))
                return .init(response: response, step: "authentication.start")
            }
        }
    }

    func finish(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body = try support.decode(AuthenticationFinishRequestBody.self, context)
            let challengeID = ChallengeID(try support.uuid(body.challengeID, field: "challengeID"))
            let response = try parse(body)
            return try await support.ceremony(.passkeyAuthentication, context) {
                () throws(PasskeyAuthenticationFinishError) -> ControllerSupport.CeremonySuccess in
                let done = try await finish.execute(challengeID: challengeID, response: response)
                if done.cloneWarning {
                    // Accepted (a synced passkey), but worth an operator's look: a possible clone.
                    support.logger.ceremony(
                        Ceremony.passkeyAuthentication.name, step: "authentication.verifyAssertion",
                        event: "warning", reason: "signCountNotIncreasedSynced", requestID: context.requestID,
                        level: .warning)
                    support.metrics.recordCeremony(
                        Ceremony.passkeyAuthentication.metricName, outcome: "warning", reason: "cloneWarning")
                }
                return .init(
                    response: support.json(200, support.session(done.session)), step: "authentication.recordAssertion")
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
        guard let id = CredentialID(bytes: try support.bytes(credentialID, field: "credentialID")) else {
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
