/// A route kind's context around the request's (`SignedInContext`, `RecentSignInContext`,
/// `SessionTokenContext`): what the kind established, plus every member of `RequestContext`
/// (`context.origin`, `context.logger`, …) and its `execute`, written once here.
@dynamicMemberLookup
protocol RequestContextWrapper: Sendable {
    var request: RequestContext { get }
}

extension RequestContextWrapper {
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
