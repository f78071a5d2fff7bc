internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// `/v1/account/sessions` (list, end all others) and `/v1/account/sessions/{sessionID}` (end one).
struct AccountSessionsController: Sendable {
    let list: SessionListUseCase
    let end: SessionEndUseCase

    func register(in routes: inout Routes) {
        routes.signedIn(.get, "/v1/account/sessions", sessions)
        routes.signedIn(.delete, "/v1/account/sessions", endOtherSessions)
        routes.signedIn(.delete, "/v1/account/sessions/{sessionID}", endSession)
    }

    @Sendable func sessions(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let caller = context.session
        return try .json(
            200,
            try await list.execute(session: caller).map { session in
                SessionInfoResponseBody(
                    sessionID: session.id.description, method: session.method.rawValue, createdAt: session.createdAt,
                    expiresAt: session.expiresAt, current: session.id == caller.session.id,
                    credentialID: session.credentialID.map { Base64URL.encode($0.bytes) })
            })
    }

    /// A malformed ID names no session: 404 like an unknown one.
    @Sendable func endSession(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("sessionID", as: SessionID.self)
        try await end.endOne(
            id, session: context.session, origin: request.origin(clientAddress: context.clientAddress))
        return .noContent
    }

    @Sendable func endOtherSessions(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try await end.endOthers(
            session: context.session, origin: request.origin(clientAddress: context.clientAddress))
        return .noContent
    }
}
