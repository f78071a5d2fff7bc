internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/passkeys/authentications`: the one passkey sign-in flow (discoverable credentials),
/// start and finish.
struct PasskeyAuthenticationsController: Sendable {
    let start: PasskeyAuthenticationStartUseCase
    let finish: PasskeyAuthenticationFinishUseCase

    func register(in routes: inout Routes) {
        routes.anyone(
            .post, "/v1/passkeys/authentications", ceremony: (.passkeyAuthentication, "authentication.start"),
            start(_:context:))
        routes.anyone(
            .post, "/v1/passkeys/authentications/finish",
            ceremony: (.passkeyAuthentication, "authentication.recordAssertion"), finish(_:context:))
    }

    @Sendable func start(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let started = try await context.execute { () throws(PasskeyAuthenticationStartError) in
            try await start.execute(clientAddress: context.rateLimitKey)
        }
        return try .json(200, AuthenticationOptionsResponseBody(started))
    }

    @Sendable func finish(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(AuthenticationFinishRequestBody.self)
        let challengeID = ChallengeID(try BodyField.uuid(body.challengeID, field: "challengeID"))
        let response = try Self.parse(body)
        let done = try await context.execute { () throws(PasskeyAuthenticationFinishError) in
            try await finish.execute(challengeID: challengeID, response: response, origin: context.origin)
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
