internal import Foundation
internal import PasskeyApplication
internal import PasskeyHTTP

/// The query of `GET /v1/account/activity`: `limit` (1–100, default 50) and `before` (a cursor
/// from a previous page's `next`). Either given empty, malformed, out of range or more than once
/// is 400 `invalid-request`; other parameters are ignored, as every endpoint ignores its query.
struct ActivityQuery: Equatable {
    var limit = AccountActivityUseCase.defaultLimit
    var before: ActivityCursor?

    init(limit: Int = AccountActivityUseCase.defaultLimit, before: ActivityCursor? = nil) {
        self.limit = limit
        self.before = before
    }

    init(_ query: String?) throws(Problem) {
        let parameters = try QueryParameters(query, reading: ["limit", "before"])
        limit = try parameters.integer(
            "limit", in: AccountActivityUseCase.limits, default: AccountActivityUseCase.defaultLimit,
            message: "limit must be a whole number from 1 to 100.")
        if let value = parameters["before"] {
            guard let cursor = ActivityCursor(wireValue: value) else {
                throw Problem.invalidRequest("before is not a value of next.")
            }
            before = cursor
        }
    }
}
