internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `GET /v1/operator/adoption?days=N` (spec v3, "Adoption, for operators"), for operators of
/// every role (v4; the `operator` route kind: 404 while no operator exists and `OPERATOR_TOKEN` is
/// unset, exactly as a route that does not exist).
struct OperatorAdoptionController: Sendable {
    let figures: AdoptionFiguresUseCase
    let authorization: OperatorAuthorizationUseCase

    func register(in routes: inout Routes) {
        routes.operator(.get, "/v1/operator/adoption", role: .viewer, authorization: authorization, adoption)
    }

    @Sendable func adoption(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let days = try Self.days(query: request.query)
        let result = try await context.execute { () throws(AdoptionFiguresError) in
            try await figures.execute(days: days)
        }
        return try .json(200, AdoptionResponseBody(result))
    }

    /// `days` of the query string: the default when absent; given more than once, or not a
    /// whole number from 1 to 366, 400 `invalid-request`.
    static func days(query: String?) throws(Problem) -> Int {
        try QueryParameters(query, reading: ["days"]).integer(
            "days", in: AdoptionFiguresUseCase.allowedDays, default: AdoptionFiguresUseCase.defaultDays,
            message: "days must be a whole number from 1 to 366.")
    }
}
