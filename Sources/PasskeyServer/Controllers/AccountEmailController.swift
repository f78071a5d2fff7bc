internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/account/email` (change the address: recent sign-in), `/v1/account/email/confirm` and
/// `/v1/account/email/verification[/confirm]` (prove the current address). Mail off: 503
/// `mail-unavailable` (the routes' `feature:` gate), after the token's check, before the body.
struct AccountEmailController: Sendable {
    let verification: EmailVerificationUseCase
    let change: EmailChangeUseCase

    func register(in routes: inout Routes) {
        let mail: Routes.FeatureGate = { [verification] in try verification.checkEnabled() }
        routes.signedIn(.post, "/v1/account/email/verification", feature: mail, requestVerification)
        routes.signedIn(.post, "/v1/account/email/verification/confirm", feature: mail, confirmVerification)
        routes.recentSignIn(.put, "/v1/account/email", feature: mail, requestChange)
        routes.signedIn(.post, "/v1/account/email/confirm", feature: mail, confirmChange)
    }

    @Sendable func requestVerification(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try await context.execute { () throws(EmailFlowError) in
            try await verification.request(session: context.session, clientAddress: context.rateLimitKey)
        }
        return .accepted
    }

    @Sendable func confirmVerification(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let body = try request.decode(EmailCodeRequestBody.self)
        let verified = try await context.execute { () throws(EmailFlowError) in
            try await verification.confirm(
                session: context.session, code: body.code, clientAddress: context.rateLimitKey, origin: context.origin)
        }
        return try .json(200, AccountResponseBody(verified.summary))
    }

    @Sendable func requestChange(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        let body = try request.decode(EmailAddressRequestBody.self)
        try await context.execute { () throws(EmailFlowError) in
            try await change.request(session: context.session, email: body.email, clientAddress: context.rateLimitKey)
        }
        return .accepted
    }

    @Sendable func confirmChange(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let body = try request.decode(EmailCodeRequestBody.self)
        let changed = try await context.execute { () throws(EmailFlowError) in
            try await change.confirm(
                session: context.session, code: body.code, clientAddress: context.rateLimitKey, origin: context.origin)
        }
        return try .json(200, AccountResponseBody(changed.summary))
    }
}
