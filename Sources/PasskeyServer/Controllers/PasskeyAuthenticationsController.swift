internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/passkeys/authentications`: the one passkey sign-in flow (discoverable credentials),
/// start and finish.
struct PasskeyAuthenticationsController: Sendable {
    let start: PasskeyAuthenticationStartUseCase
    let finish: PasskeyAuthenticationFinishUseCase
    let ceremonies: CeremonyRecorder

    func register(in routes: inout Routes) {
        routes.anyone(.post, "/v1/passkeys/authentications", start(_:context:))
        routes.anyone(.post, "/v1/passkeys/authentications/finish", finish(_:context:))
    }

    @Sendable func start(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let started = try await ceremonies.record(.passkeyAuthentication, step: "authentication.start", context) {
            () throws(PasskeyAuthenticationStartError) in
            try await start.execute(clientAddress: context.rateLimitKey)
        }
        let options = started.options
        return try .json(
            200,
            AuthenticationOptionsResponseBody(
                challengeID: started.challengeID.description, relyingPartyID: options.relyingPartyID,
                challenge: Base64URL.encode(options.challenge.bytes), expiresAt: started.expiresAt,
                publicKey: RequestOptionsJSON(options)))
    }

    @Sendable func finish(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(AuthenticationFinishRequestBody.self)
        let challengeID = ChallengeID(try BodyField.uuid(body.challengeID, field: "challengeID"))
        let response = try Self.parse(body)
        let origin = request.origin(clientAddress: context.clientAddress)
        let done = try await ceremonies.record(.passkeyAuthentication, step: "authentication.recordAssertion", context)
        {
            () throws(PasskeyAuthenticationFinishError) in
            try await finish.execute(challengeID: challengeID, response: response, origin: origin)
        }
        if done.cloneWarning {
            // Accepted (a synced passkey), but worth an operator's look: a possible clone.
            ceremonies.warning(
                .passkeyAuthentication, step: "authentication.verifyAssertion", reason: "signCountNotIncreasedSynced",
                metricReason: "cloneWarning", context)
        }
        return try .json(200, SessionResponseBody(done.session))
    }

    private static func parse(_ body: AuthenticationFinishRequestBody) throws(Problem) -> AuthenticationResponse {
        let fields = try body.credentialFields()
        let credentialID = try fields.required(fields.credentialID, "credentialID")
        let clientDataJSON = try fields.required(fields.clientDataJSON, "clientDataJSON")
        let authenticatorData = try fields.required(fields.authenticatorData, "authenticatorData")
        let signature = try fields.required(fields.signature, "signature")
        guard let id = CredentialID(bytes: try BodyField.bytes(credentialID, field: "credentialID")) else {
            throw Problem.invalidRequest("credentialID must be 1 to 1023 bytes.")
        }
        return AuthenticationResponse(
            credentialID: id, clientDataJSON: try BodyField.bytes(clientDataJSON, field: "clientDataJSON"),
            authenticatorData: try BodyField.bytes(authenticatorData, field: "authenticatorData"),
            signature: try BodyField.bytes(signature, field: "signature"),
            userHandle: try fields.userHandle.map { (value: String) throws(Problem) -> [UInt8] in
                try BodyField.bytes(value, field: "userHandle")
            })
    }
}
