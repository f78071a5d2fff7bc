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

    func register(in routes: inout Routes) {
        routes.signedIn(.get, "/v1/account", account)
        routes.recentSignIn(.delete, "/v1/account", deleteAccount)
        routes.recentSignIn(.delete, "/v1/account/password", removePassword)
        routes.recentSignIn(.put, "/v1/account/password", setPassword)
    }

    @Sendable func account(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let summary = try await context.execute { () throws(AccountManagementError) in
            try await query.execute(session: context.session)
        }
        return try .json(200, AccountResponseBody(summary))
    }

    @Sendable func removePassword(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        try await context.execute { () throws(AccountManagementError) in
            try await passwordRemoval.execute(session: context.session, origin: context.origin)
        }
        return .noContent
    }

    @Sendable func setPassword(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        let body = try request.decode(PasswordSetRequestBody.self)
        try await context.execute { () throws(PasswordSetError) in
            try await passwordSet.execute(session: context.session, password: body.password, origin: context.origin)
        }
        return .noContent
    }

    @Sendable func deleteAccount(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        try await context.execute { () throws(AccountManagementError) in
            try await accountDeletion.execute(session: context.session, origin: context.origin)
        }
        return .noContent
    }
}
