internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/account/recovery-codes`: a new set of recovery codes, shown only in this answer.
struct AccountRecoveryCodesController: Sendable {
    let creation: RecoveryCodeSetCreationUseCase

    func register(in routes: inout Routes) {
        routes.recentSignIn(.post, "/v1/account/recovery-codes", createCodes)
    }

    @Sendable func createCodes(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        let set = try await context.execute { () throws(AccountManagementError) in
            try await creation.execute(session: context.session, origin: context.origin)
        }
        return try .json(201, RecoveryCodesResponseBody(set))
    }
}
