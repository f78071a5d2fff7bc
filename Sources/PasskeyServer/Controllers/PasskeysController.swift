internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/passkeys` and `/v1/passkeys/{credentialID}`: the signed-in account's passkeys: list,
/// rename, delete.
struct PasskeysController: Sendable {
    let list: PasskeyListUseCase
    let rename: PasskeyRenameUseCase
    let deletion: PasskeyDeletionUseCase

    func register(in routes: inout Routes) {
        routes.signedIn(.get, "/v1/passkeys", passkeys)
        routes.signedIn(.patch, "/v1/passkeys/{credentialID}", renamePasskey)
        routes.recentSignIn(.delete, "/v1/passkeys/{credentialID}", deletePasskey)
    }

    @Sendable func passkeys(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let passkeys = try await context.execute { () throws(AccountManagementError) in
            try await list.execute(session: context.session)
        }
        return try .json(200, passkeys.map(PasskeyResponseBody.init))
    }

    @Sendable func renamePasskey(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("credentialID", as: CredentialID.self)
        let body = try request.decode(PasskeyRenameRequestBody.self)
        guard let name = PasskeyName(body.name) else { throw Problem.invalidRequest("name is invalid.") }
        let renamed = try await context.execute { () throws(AccountManagementError) in
            try await rename.execute(session: context.session, credentialID: id, name: name, origin: context.origin)
        }
        return try .json(200, PasskeyResponseBody(renamed))
    }

    /// A malformed ID names no passkey: 404, after the recent-sign-in check of the route kind.
    @Sendable func deletePasskey(_ request: HTTPRequest, context: RecentSignInContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("credentialID", as: CredentialID.self)
        try await context.execute { () throws(AccountManagementError) in
            try await deletion.execute(session: context.session, credentialID: id, origin: context.origin)
        }
        return .noContent
    }
}
