internal import PasskeyApplication

/// The context of a step-up route (`Routes.recentSignIn`): the request's context and the session
/// that passed the recent-sign-in rule, which the step-up use cases take.
@dynamicMemberLookup
struct RecentSignInContext: Sendable {
    let request: RequestContext
    let session: RecentSession

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
