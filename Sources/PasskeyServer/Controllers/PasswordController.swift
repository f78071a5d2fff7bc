internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `POST /v1/accounts`, `POST /v1/sessions`, `DELETE /v1/sessions/current`.
struct PasswordController: Sendable {
    let support: ControllerSupport
    let registration: PasswordAccountRegistrationUseCase
    let authentication: PasswordAuthenticationUseCase
    let signOut: SignOutUseCase

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
                throw ProblemMapping.problem(error)
            }
        }
    }

    func signIn(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body = try support.decode(PasswordSessionRequestBody.self, context)
            do throws(PasswordAuthenticationError) {
                let issued = try await authentication.execute(
                    email: body.email, password: body.password, clientAddress: context.rateLimitKey)
                support.logger.ceremony(
                    "PasswordAuthentication", step: "password.verify", event: "succeeded", requestID: context.requestID)
                support.metrics.recordCeremony("password_authentication", outcome: "succeeded")
                return support.json(200, support.session(issued))
            } catch {
                let reason: String
                switch error {
                case .invalidCredentials: reason = "invalidCredentials"
                case .rateLimited: reason = "rateLimited"
                case .hashingBusy: reason = "hashingBusy"
                case .invalidRequest: reason = "invalidRequest"
                case .unavailable: reason = "databaseUnavailable"
                case .internalFailure: reason = "internal"
                }
                support.logger.ceremony(
                    "PasswordAuthentication", step: "password.verify", event: "failed", reason: reason,
                    requestID: context.requestID)
                support.metrics.recordCeremony("password_authentication", outcome: "failed", reason: reason)
                throw ProblemMapping.problem(error)
            }
        }
    }

    func signOut(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(SignOutError) {
                try await signOut.execute(session: session)
            } catch {
                throw ProblemMapping.problem(error)
            }
            return support.noContent()
        }
    }
}
