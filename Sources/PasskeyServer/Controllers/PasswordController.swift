internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `POST /v1/accounts`, `POST /v1/sessions`, `DELETE /v1/sessions/current`.
struct PasswordController: Sendable {
    let support: ControllerSupport
    let registration: PasswordAccountRegistrationUseCase
    let authentication: PasswordAuthenticationUseCase
    let signOut: SignOutUseCase

    func register(in router: inout Router) {
        router.add("POST", "/v1/accounts", createAccount(_:))
        router.add("POST", "/v1/sessions", signIn(_:))
        router.add("DELETE", "/v1/sessions/current", signOut(_:))
    }

    func createAccount(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body = try support.decode(PasswordAccountRequestBody.self, context)
            do throws(PasswordAccountRegistrationError) {
                let account = try await registration.execute(
                    email: body.email, displayName: body.displayName, password: body.password,
                    clientAddress: context.rateLimitKey)
                return support.json(
                    201,
                    AccountCreatedResponseBody(
                        accountID: account.id.description, displayName: account.displayName.value))
            } catch {
                throw error.problem
            }
        }
    }

    func signIn(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body = try support.decode(PasswordSessionRequestBody.self, context)
            return try await support.ceremony(.passwordAuthentication, context) {
                () throws(PasswordAuthenticationError) -> ControllerSupport.CeremonySuccess in
                let done = try await authentication.execute(
                    email: body.email, password: body.password, clientAddress: context.rateLimitKey)
                if let failure = done.rehashFailure {
                    support.logger.warning([
                        "event": "password_rehash_failed", "request_id": context.requestID, "cause": "\(failure)",
                    ])
                }
                return .init(response: support.json(200, support.session(done.session)), step: "password.verify")
            }
        }
    }

    func signOut(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(SignOutError) {
                try await signOut.execute(session: session)
            } catch {
                throw error.problem
            }
            return support.noContent()
        }
    }
}
