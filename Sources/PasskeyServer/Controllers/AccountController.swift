internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// The signed-in account: `GET /v1/account`, passkey list/rename/delete, password removal,
/// account deletion.
struct AccountController: Sendable {
    let support: ControllerSupport
    let query: AccountQueryUseCase
    let list: PasskeyListUseCase
    let rename: PasskeyRenameUseCase
    let deletion: PasskeyDeletionUseCase
    let passwordRemoval: PasswordRemovalUseCase
    let accountDeletion: AccountDeletionUseCase

    func register(in router: inout Router) {
        router.add("GET", "/v1/account", account(_:))
        router.add("DELETE", "/v1/account", deleteAccount(_:))
        router.add("DELETE", "/v1/account/password", removePassword(_:))
        router.add("GET", "/v1/passkeys", passkeys(_:))
        router.add("PATCH", "/v1/passkeys/{credentialID}", renamePasskey(_:))
        router.add("DELETE", "/v1/passkeys/{credentialID}", deletePasskey(_:))
    }

    func account(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(AccountManagementError) {
                let summary = try await query.execute(session: session)
                return support.json(
                    200,
                    AccountResponseBody(
                        accountID: summary.account.id.description, displayName: summary.account.displayName.value,
                        email: summary.email.value, hasPassword: summary.hasPassword,
                        passkeys: summary.passkeys.map(support.passkey),
                        recoveryCodesRemaining: summary.recoveryCodesRemaining))
            } catch {
                throw error.problem
            }
        }
    }

    func passkeys(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(AccountManagementError) {
                return support.json(200, try await list.execute(session: session).map(support.passkey))
            } catch {
                throw error.problem
            }
        }
    }

    func renamePasskey(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            let id = try credentialID(context)
            let body = try support.decode(PasskeyRenameRequestBody.self, context)
            guard let name = PasskeyName(body.name) else { throw Problem.invalidRequest("name is invalid.") }
            do throws(AccountManagementError) {
                return support.json(
                    200, support.passkey(try await rename.execute(session: session, credentialID: id, name: name)))
            } catch {
                throw error.problem
            }
        }
    }

    func deletePasskey(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(AccountManagementError) {
                // A malformed ID is a 404 from the use case, after its recent-sign-in check.
                try await deletion.execute(session: session, credentialID: try? credentialID(context))
                return support.noContent()
            } catch {
                throw error.problem
            }
        }
    }

    func removePassword(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(AccountManagementError) {
                try await passwordRemoval.execute(session: session)
                return support.noContent()
            } catch {
                throw error.problem
            }
        }
    }

    func deleteAccount(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(AccountManagementError) {
                try await accountDeletion.execute(session: session)
                support.logger.warning([
                    "event": "account_deleted", "account_id": session.account.id.description,
                    "request_id": context.requestID,
                ])
                return support.noContent()
            } catch {
                throw error.problem
            }
        }
    }

    /// The `{credentialID}` path segment (base64url); a malformed one names no passkey: 404.
    private func credentialID(_ context: RequestContext) throws(Problem) -> CredentialID {
        guard let raw = context.pathParameters.first, let bytes = Base64URL.decode(raw, lenient: true),
            let id = CredentialID(bytes: bytes)
        else { throw Problem.notFound }
        return id
    }
}
