internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/account` (read, delete) and `/v1/account/password` (drop the password: stage ③; (v3) set
/// or replace it).
struct AccountController: Sendable {
    let query: AccountQueryUseCase
    let passwordRemoval: PasswordRemovalUseCase
    let passwordSet: PasswordSetUseCase
    let accountDeletion: AccountDeletionUseCase
    let logger: Logger

    func register(in routes: inout Routes) {
        routes.signedIn(.get, "/v1/account", account)
        routes.recentSignIn(.delete, "/v1/account", deleteAccount)
        routes.recentSignIn(.delete, "/v1/account/password", removePassword)
        routes.recentSignIn(.put, "/v1/account/password", setPassword)
    }

    @Sendable func account(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let summary = try await query.execute(session: context.session)
        return try .json(200, AccountResponseBody(summary))
    }

    @Sendable func removePassword(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        try await passwordRemoval.execute(
            session: context.session, origin: request.origin(clientAddress: context.clientAddress))
        return .noContent
    }

    @Sendable func setPassword(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        let body = try request.decode(PasswordSetRequestBody.self)
        try await passwordSet.execute(
            session: context.session, password: body.password,
            origin: RequestOrigin(clientAddress: context.clientAddress, userAgent: request.header("User-Agent")))
        logger.info([
            "event": "password_set", "account_id": context.session.account.id.description,
            "request_id": context.requestID,
        ])
        return .noContent
    }

    @Sendable func deleteAccount(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        try await accountDeletion.execute(
            session: context.session, origin: request.origin(clientAddress: context.clientAddress))
        logger.warning([
            "event": "account_deleted", "account_id": context.session.account.id.description,
            "request_id": context.requestID,
        ])
        return .noContent
    }
}
