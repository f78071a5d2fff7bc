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
        let sessions = try await context.execute { () throws(AccountManagementError) in
            try await list.execute(session: caller)
        }
        return try .json(200, sessions.map { SessionInfoResponseBody($0, current: $0.id == caller.session.id) })
    }

    /// A malformed ID names no session: 404 like an unknown one.
    @Sendable func endSession(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("sessionID", as: SessionID.self)
        try await context.execute { () throws(AccountManagementError) in
            try await end.endOne(id, session: context.session, origin: context.origin)
        }
        return .noContent
    }

    @Sendable func endOtherSessions(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        try await context.execute { () throws(AccountManagementError) in
            try await end.endOthers(session: context.session, origin: context.origin)
        }
        return .noContent
    }
}
