import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyHTTP
import PasskeyTestSupport
import Synchronization
import Testing

@testable import PasskeyServer

/// The pipeline and the route kinds without a database: the middlewares' order, who reaches a
/// handler, typed path parameters, and what a thrown error answers.
@Suite struct RequestPipelineTests {
    /// Records its name on the way in and out.
    private struct Recording: ServerMiddleware {
        let name: String
        let trail: Trail

        func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
            trail.append("in:\(name)")
            let response = await next(request, context)
            trail.append("out:\(name)")
            return response
        }
    }

    private final class Trail: Sendable {
        private let steps = Mutex<[String]>([])
        func append(_ step: String) { steps.withLock { $0.append(step) } }
        var all: [String] { steps.withLock { $0 } }
    }

    /// A route table on the in-memory store, with one session that signed in `age` seconds ago.
    private struct Fixture {
        let clock = FixedClock()
        let sessions = InMemoryStore()
        let logs = LogCapture()
        let token = "token-1"
        var routes: Routes

        init(sessionAge: TimeInterval, reauthenticationWindow: TimeInterval = 600) async throws {
            let account = DomainFixtures.account()
            sessions.addAccount(account)
            try await sessions.createSession(
                AuthenticationSession(
                    accountID: account.id, tokenDigest: SequentialTokenGenerator.digest(of: token), method: .password,
                    createdAt: clock.now.addingTimeInterval(-sessionAge),
                    expiresAt: clock.now.addingTimeInterval(3600)))
            var policy = PasskeyPolicy(relyingPartyID: "localhost", relyingPartyName: "Test")
            policy.reauthenticationWindow = reauthenticationWindow
            routes = Routes(
                runner: HandlerRunner(
                    bearer: BearerAuthenticationUseCase(
                        sessions: sessions, tokens: SequentialTokenGenerator(), clock: clock),
                    recentSignIn: RecentSignInRequirement(policy: policy, clock: clock), metrics: Metrics()))
        }

        func send(_ method: HTTPMethod, _ path: String, token: String? = nil) async -> HTTPResponse {
            let headers = HTTPFields(token.map { [("authorization", "Bearer \($0)")] } ?? [])
            return await RequestPipeline(
                [RequestIDMiddleware()], router: routes.router, logger: Logger(level: .info, sink: logs.sink)
            )
            .respond(to: HTTPRequest(method: method, path: path, headers: headers))
        }
    }

    @Test func middlewaresRunInTheirListedOrderOutermostFirst() async {
        let trail = Trail()
        var router = Router()
        router.add(.get, "/x") { _, _ in
            trail.append("handler")
            return HTTPResponse(status: 200)
        }
        let pipeline = RequestPipeline(
            [Recording(name: "a", trail: trail), Recording(name: "b", trail: trail)], router: router,
            logger: Logger(level: .error))
        let response = await pipeline.respond(to: HTTPRequest(method: "GET", path: "/x"))
        #expect(response.status == 200)
        #expect(trail.all == ["in:a", "in:b", "handler", "out:b", "out:a"])
    }

    @Test func aSignedInRouteAnswers401BeforeItsHandlerRuns() async throws {
        var fixture = try await Fixture(sessionAge: 0)
        let reached = Trail()
        fixture.routes.signedIn(.get, "/me") { _, context in
            reached.append(context.session.account.id.description)
            return HTTPResponse(status: 200)
        }
        #expect(await fixture.send("GET", "/me").status == 401)
        #expect(await fixture.send("GET", "/me", token: "wrong").status == 401)
        #expect(reached.all.isEmpty)
        #expect(await fixture.send("GET", "/me", token: fixture.token).status == 200)
        #expect(reached.all.count == 1)
    }

    @Test func aRecentSignInRouteAnswers403ForAnOlderSessionBeforeItsHandlerRuns() async throws {
        for (age, expected) in [(601.0, 403), (599.0, 204)] {
            var fixture = try await Fixture(sessionAge: age)
            let reached = Trail()
            fixture.routes.recentSignIn(.delete, "/thing/{credentialID}") { _, context in
                _ = try context.parameters.require("credentialID", as: CredentialID.self)
                reached.append("handler")
                return .noContent
            }
            let response = await fixture.send("DELETE", "/thing/AQID", token: fixture.token)
            #expect(response.status.code == expected)
            #expect(reached.all.count == (expected == 204 ? 1 : 0))
            // The step-up check comes before the handler's own 404 for a malformed ID.
            let malformed = await fixture.send("DELETE", "/thing/***", token: fixture.token)
            #expect(malformed.status == (expected == 204 ? 404 : 403))
        }
    }

    @Test func typedPathParametersDecodeOrAnswer404() throws {
        let parameters = PathParameters(
            names: ["credentialID", "sessionID"], values: ["AQID", "00000000-0000-0000-0000-00000000000a"])
        #expect(try parameters.require("credentialID", as: CredentialID.self).bytes == [1, 2, 3])
        #expect(try parameters.require("sessionID", as: SessionID.self).description.hasSuffix("0a"))
        #expect(throws: Problem.self) { try parameters.require("missing", as: SessionID.self) }
        let malformed = PathParameters(names: ["sessionID"], values: ["not-a-uuid"])
        do {
            _ = try malformed.require("sessionID", as: SessionID.self)
            Issue.record("a malformed session ID decoded")
        } catch {
            #expect(error.status == 404)
        }
    }

    private struct Unmapped: Error, CustomStringConvertible {
        var description: String { "disk on fire" }
    }

    @Test func anUnmappedErrorIsA500WhoseCauseIsLoggedNotSent() async throws {
        var fixture = try await Fixture(sessionAge: 0)
        fixture.routes.anyone(.get, "/boom") { _, _ in throw Unmapped() }
        // A body that cannot be encoded (JSON has no NaN) is a 500 with its cause, not `{}`.
        fixture.routes.anyone(.get, "/nan") { _, _ in try .json(200, ["value": Double.nan]) }
        for path in ["/boom", "/nan"] {
            let response = await fixture.send("GET", path)
            #expect(response.status == 500)
            let body = String(decoding: response.body, as: UTF8.self)
            #expect(body.contains(#""code":"internal""#))
            #expect(!body.contains("disk on fire"))
        }
        #expect(fixture.logs.text.contains("disk on fire"))
        #expect(fixture.logs.text.contains("route=/nan"))
    }

    @Test func aMappedUseCaseErrorAnswersItsProblem() async throws {
        var fixture = try await Fixture(sessionAge: 0)
        fixture.routes.anyone(.get, "/limited") { _, _ in throw PasswordAuthenticationError.rateLimited(retryAfter: 7) }
        let response = await fixture.send("GET", "/limited")
        #expect(response.status == 429)
        #expect(response.headers.contains { $0.name == "Retry-After" && $0.value == "7" })
    }
}
