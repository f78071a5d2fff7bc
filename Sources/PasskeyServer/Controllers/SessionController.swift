internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// The account's sessions: `GET /v1/account/sessions`, `DELETE /v1/account/sessions/{sessionID}`,
/// `DELETE /v1/account/sessions` (all but the caller's).
struct SessionController: Sendable {
    let support: ControllerSupport
    let list: SessionListUseCase
    let end: SessionEndUseCase

    func register(in router: inout Router) {
        router.add("GET", "/v1/account/sessions", sessions(_:))
        router.add("DELETE", "/v1/account/sessions", endOtherSessions(_:))
        router.add("DELETE", "/v1/account/sessions/{sessionID}", endSession(_:))
    }

    func sessions(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let caller = try await support.authenticate(context)
            do throws(AccountManagementError) {
                let sessions = try await list.execute(session: caller)
                return support.json(
                    200,
                    sessions.map { session in
                        SessionInfoResponseBody(
                            sessionID: session.id.description, method: session.method.rawValue,
                            createdAt: session.createdAt, expiresAt: session.expiresAt,
                            current: session.id == caller.session.id,
                            credentialID: session.credentialID.map { Base64URL.encode($0.bytes) })
                    })
            } catch {
                throw error.problem
            }
        }
    }

    func endSession(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let caller = try await support.authenticate(context)
            // A malformed ID names no session: 404 like an unknown one.
            let id = context.pathParameters.first.flatMap { UUID(uuidString: $0) }.map { SessionID($0) }
            do throws(AccountManagementError) {
                try await end.endOne(id, session: caller)
                return support.noContent()
            } catch {
                throw error.problem
            }
        }
    }

    func endOtherSessions(_ context: RequestContext) async -> HTTPResponse {
        await support.respond(context) { () throws(Problem) -> HTTPResponse in
            let caller = try await support.authenticate(context)
            do throws(AccountManagementError) {
                try await end.endOthers(session: caller)
                return support.noContent()
            } catch {
                throw error.problem
            }
        }
    }
}
