internal import PasskeyApplication
internal import PasskeyHTTP

/// Where controllers register their endpoints, each under its kind:
/// - `anyone`: no sign-in needed; the handler gets the request's context;
/// - `signedIn`: a live bearer token, else 401 `unauthorized` before the handler runs; the
///   handler gets the session in a `SignedInContext`;
/// - `recentSignIn`: as `signedIn`, and the session signed in within
///   `REAUTHENTICATION_WINDOW_SECONDS`, else 403 `reauthentication-required`, checked right
///   after the token as the contract says; the handler gets the `RecentSession` that the
///   step-up use cases take, in a `RecentSignInContext`.
/// Handlers decode, execute their use case and encode. Whatever they throw is answered through
/// the one mapping (`Problems/ProblemMapping.swift`); anything unmapped is a 500 whose cause is
/// logged with the request ID and never sent.
struct Routes: Sendable {
    typealias PublicHandler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse
    typealias SignedInHandler = @Sendable (HTTPRequest, SignedInContext) async throws -> HTTPResponse
    typealias RecentSignInHandler = @Sendable (HTTPRequest, RecentSignInContext) async throws -> HTTPResponse

    private(set) var router = Router()
    let runner: HandlerRunner

    init(runner: HandlerRunner) {
        self.runner = runner
    }

    mutating func anyone(_ method: HTTPMethod, _ path: String, _ handler: @escaping PublicHandler) {
        let runner = runner
        router.add(method, path) { request, context in
            await runner.run(context) { try await handler(request, context) }
        }
    }

    mutating func signedIn(_ method: HTTPMethod, _ path: String, _ handler: @escaping SignedInHandler) {
        let runner = runner
        router.add(method, path) { request, context in
            await runner.run(context) {
                let session = try await runner.authenticate(request)
                return try await handler(request, SignedInContext(request: context, session: session))
            }
        }
    }

    mutating func recentSignIn(_ method: HTTPMethod, _ path: String, _ handler: @escaping RecentSignInHandler) {
        let runner = runner
        router.add(method, path) { request, context in
            await runner.run(context) {
                let recent = try runner.recentSignIn.check(try await runner.authenticate(request))
                return try await handler(request, RecentSignInContext(request: context, session: recent))
            }
        }
    }
}
