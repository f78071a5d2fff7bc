internal import PasskeyApplication

/// The context of a route that needs a signed-in caller: the request's context and the live
/// session behind its bearer token. Handlers of such routes never authenticate themselves; the
/// route kind (`Routes.signedIn`, `Routes.recentSignIn`) did it before calling them.
@dynamicMemberLookup
struct SignedInContext: Sendable {
    let request: RequestContext
    let session: ActiveSession

    subscript<T>(dynamicMember keyPath: KeyPath<RequestContext, T>) -> T {
        request[keyPath: keyPath]
    }

    /// `RequestContext.execute`.
    @discardableResult
    func execute<Output, Failure: ProblemConvertible>(_ body: () async throws(Failure) -> Output)
        async throws(Failure) -> Output
    {
        try await request.execute(body)
    }
}

/// (v4) The context of a `Routes.sessionToken` route: the request's context and the bearer token,
/// not yet looked up (the use case does, in its own statement).
@dynamicMemberLookup
struct SessionTokenContext: Sendable {
    let request: RequestContext
    let token: String

    subscript<T>(dynamicMember keyPath: KeyPath<RequestContext, T>) -> T {
        request[keyPath: keyPath]
    }

    /// `RequestContext.execute`.
    @discardableResult
    func execute<Output, Failure: ProblemConvertible>(_ body: () async throws(Failure) -> Output)
        async throws(Failure) -> Output
    {
        try await request.execute(body)
    }
}
