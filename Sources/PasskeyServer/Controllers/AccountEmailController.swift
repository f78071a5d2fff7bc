internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/account/email` (change the address: recent sign-in), `/v1/account/email/confirm` and
/// `/v1/account/email/verification[/confirm]` (prove the current address).
struct AccountEmailController: Sendable {
    let verification: EmailVerificationUseCase
    let change: EmailChangeUseCase
    let logger: Logger

    func register(in routes: inout Routes) {
        routes.signedIn(.post, "/v1/account/email/verification", requestVerification)
        routes.signedIn(.post, "/v1/account/email/verification/confirm", confirmVerification)
        routes.recentSignIn(.put, "/v1/account/email", requestChange)
        routes.signedIn(.post, "/v1/account/email/confirm", confirmChange)
    }

    @Sendable func requestVerification(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try await verification.request(session: context.session)
        return .accepted
    }

    @Sendable func confirmVerification(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try verification.checkEnabled()
        let body = try request.decode(EmailCodeRequestBody.self)
        let summary = try await verification.confirm(
            session: context.session, code: body.code, clientAddress: context.rateLimitKey,
            origin: request.origin(clientAddress: context.clientAddress))
        logger.info([
            "event": "email_verified", "account_id": summary.account.id.description, "request_id": context.requestID,
        ])
        return try .json(200, AccountResponseBody(summary))
    }

    @Sendable func requestChange(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        try verification.checkEnabled()
        let body = try request.decode(EmailAddressRequestBody.self)
        try await change.request(session: context.session, email: body.email)
        return .accepted
    }

    @Sendable func confirmChange(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try verification.checkEnabled()
        let body = try request.decode(EmailCodeRequestBody.self)
        let summary = try await change.confirm(
            session: context.session, code: body.code, clientAddress: context.rateLimitKey,
            origin: RequestOrigin(clientAddress: context.clientAddress, userAgent: request.header("User-Agent")))
        logger.warning([
            "event": "email_changed", "account_id": summary.account.id.description, "request_id": context.requestID,
        ])
        return try .json(200, AccountResponseBody(summary))
    }
}
