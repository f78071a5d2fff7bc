internal import Foundation
internal import PasskeyHTTP

/// Gives the request its ID (the client's `X-Request-ID` when it is a short token, else a new
/// UUID) and echoes it in the response.
struct RequestIDMiddleware: ServerMiddleware {
    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        var context = context
        context.requestID = Self.requestID(request.header("x-request-id"))
        var response = await next(request, context)
        response.headers.append(("X-Request-ID", context.requestID))
        return response
    }

    static func requestID(_ given: String?) -> String {
        if let given, (1...64).contains(given.count),
            given.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        {
            return given
        }
        return UUID().uuidString.lowercased()
    }
}
