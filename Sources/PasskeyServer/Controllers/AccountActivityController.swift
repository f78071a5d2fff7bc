internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// (v3) `/v1/account/activity`: the signed-in account's events, newest first, a page at a time.
struct AccountActivityController: Sendable {
    let activity: AccountActivityUseCase

    func register(in routes: inout Routes) {
        routes.signedIn(.get, "/v1/account/activity", page)
    }

    @Sendable func page(_ request: HTTPRequest, context: SignedInContext) async throws -> HTTPResponse {
        let query = try ActivityQuery(request.query)
        let page = try await context.execute { () throws(AccountManagementError) in
            try await activity.execute(session: context.session, limit: query.limit, before: query.before)
        }
        return try .json(
            200,
            ActivityPageResponseBody(events: page.events.map(AccountEventResponseBody.init), next: page.next?.wireValue)
        )
    }
}
