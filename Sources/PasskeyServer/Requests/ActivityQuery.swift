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
        var seen: Set<String> = []
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = String(parts[0]).removingPercentEncoding else { continue }
            guard name == "limit" || name == "before" else { continue }
            guard seen.insert(name).inserted else { throw Problem.invalidRequest("\(name) is given more than once.") }
            guard parts.count == 2, let value = String(parts[1]).removingPercentEncoding else {
                throw Problem.invalidRequest("\(name) is invalid.")
            }
            if name == "limit" {
                guard (1...3).contains(value.utf8.count), value.utf8.allSatisfy({ (48...57).contains($0) }),
                    let number = Int(value), AccountActivityUseCase.limits.contains(number)
                else { throw Problem.invalidRequest("limit must be a whole number from 1 to 100.") }
                limit = number
            } else {
                guard let cursor = ActivityCursor(wireValue: value) else {
                    throw Problem.invalidRequest("before is not a value of next.")
                }
                before = cursor
            }
        }
    }
}
