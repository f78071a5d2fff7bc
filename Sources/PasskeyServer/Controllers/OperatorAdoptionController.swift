internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyWire

/// `GET /v1/operator/adoption?days=N` (spec v3, "Adoption, for operators"), behind
/// `OPERATOR_TOKEN` compared in constant time. Registered only while the token is set, so that
/// without it the path answers 404 exactly as a route that does not exist.
struct OperatorController: Sendable {
    let figures: AdoptionFiguresUseCase
    let token: ConfiguredTokenCheck

    func register(in routes: inout Routes) {
        routes.anyone(.get, "/v1/operator/adoption", adoption)
    }

    @Sendable func adoption(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        guard token.accepts(AuthorizationHeader.bearerToken(request.header("authorization"))) else {
            return Problem.unauthorized.response
        }
        guard let days = Self.days(query: request.query) else { throw AdoptionFiguresError.invalidDays }
        return try .json(200, AdoptionResponseBody(try await figures.execute(days: days)))
    }

    /// `days` of the query string: the default when absent, nil when it is given more than once
    /// or is not a plain decimal number (the use case checks the range).
    static func days(query: String?) -> Int? {
        let values = (query ?? "").split(separator: "&").compactMap { pair -> Substring? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.first == "days" ? (parts.count == 2 ? parts[1] : "") : nil
        }
        guard let value = values.first else { return AdoptionFiguresUseCase.defaultDays }
        guard values.count == 1, (1...3).contains(value.count), value.allSatisfy(\.isASCII),
            value.allSatisfy(\.isNumber)
        else { return nil }
        return Int(value)
    }
}
