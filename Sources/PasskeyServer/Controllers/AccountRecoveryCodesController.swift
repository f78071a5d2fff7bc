internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/account/recovery-codes`: a new set of recovery codes, shown only in this answer.
struct AccountRecoveryCodesController: Sendable {
    let creation: RecoveryCodeSetCreationUseCase
    let logger: Logger

    func register(in routes: inout Routes) {
        routes.recentSignIn(.post, "/v1/account/recovery-codes", createCodes)
    }

    @Sendable func createCodes(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        let set = try await creation.execute(
            session: context.session, origin: request.origin(clientAddress: context.clientAddress))
        logger.info([
            "event": "recovery_codes_created", "account_id": context.session.account.id.description,
            "request_id": context.requestID,
        ])
        return try .json(201, RecoveryCodesResponseBody(codes: set.codes, createdAt: set.createdAt))
    }
}
