internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// Recovery codes: `POST /v1/account/recovery-codes` (a new set, shown once) and
/// `POST /v1/recovery/sessions` (sign in with a code).
struct RecoveryController: Sendable {
    let support: ControllerSupport
    let creation: RecoveryCodeSetCreationUseCase
    let signIn: RecoveryAuthenticationUseCase

    func register(in router: inout Router) {
        router.add("POST", "/v1/account/recovery-codes", createCodes(_:))
        router.add("POST", "/v1/recovery/sessions", signIn(_:))
    }

    func createCodes(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let session = try await support.authenticate(context)
            do throws(AccountManagementError) {
                let set = try await creation.execute(session: session)
                support.logger.info([
                    "event": "recovery_codes_created", "account_id": session.account.id.description,
                    "request_id": context.requestID,
                ])
                return support.json(201, RecoveryCodesResponseBody(codes: set.codes, createdAt: set.createdAt))
            } catch {
                throw error.problem
            }
        }
    }

    func signIn(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let body = try support.decode(RecoverySessionRequestBody.self, context)
            return try await support.ceremony(.recoveryAuthentication, context) {
                () throws(RecoveryAuthenticationError) -> ControllerSupport.CeremonySuccess in
                let (issued, source) = try await signIn.execute(
                    email: body.email, code: body.code, clientAddress: context.rateLimitKey)
                // Every recovery sign-in is worth an operator's look; never with the code.
                support.logger.warning([
                    "event": "recovery_sign_in", "account_id": issued.account.id.description,
                    "source": source.rawValue, "client": context.clientAddress, "request_id": context.requestID,
                ])
                return .init(
                    response: support.json(200, support.session(issued)), step: "recovery.redeem",
                    reason: source.rawValue)
            }
        }
    }
}
