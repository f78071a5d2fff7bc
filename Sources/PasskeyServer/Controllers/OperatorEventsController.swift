internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// (v4) `GET /v1/operator/events?after=&limit=` (spec v4, "Webhooks"): the event log, oldest first,
/// a page at a time, for operators of every role (the `operator` route kind).
struct OperatorEventsController: Sendable {
    let feed: EventFeedUseCase
    let authorization: OperatorAuthorizationUseCase

    func register(in routes: inout Routes) {
        routes.operator(.get, "/v1/operator/events", role: .viewer, authorization: authorization, events)
    }

    @Sendable func events(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let parameters = try QueryParameters(request.query, reading: ["after", "limit"])
        let limit = try parameters.integer(
            "limit", in: EventFeedUseCase.limits, default: EventFeedUseCase.defaultLimit,
            message: "limit must be a whole number from 1 to 1000.")
        var after: EventLogCursor?
        if let value = parameters["after"] {
            guard let cursor = EventLogCursor(wireValue: value) else {
                throw Problem.invalidRequest("after is not a value of next.")
            }
            after = cursor
        }
        let page = try await context.execute { () throws(EventFeedError) in
            try await feed.execute(after: after, limit: limit)
        }
        return try .json(
            200, EventsPageResponseBody(events: page.events.map(EventPayloadBody.init), next: page.next?.wireValue))
    }
}
