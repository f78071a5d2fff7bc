internal import PasskeyApplication

// (v4) The token errors as HTTP problems (spec v4, "Tokens for the product's other services").
extension ServiceTokenError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is not one of this server's token audiences.")
        case .unauthorized: .unauthorized
        case .tokensUnavailable: ProblemMapping.tokensUnavailable
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension ProblemMapping {
    static let tokensUnavailable = Problem(
        status: 503, code: .tokensUnavailable, detail: "This server signs no tokens (no DATA_ENCRYPTION_KEY).")

    /// A missing or wrong service client at `POST /v1/introspect` (RFC 6749 §2.3.1).
    static let introspectionUnauthorized = Problem(
        status: 401, code: .unauthorized, detail: "A configured service client (HTTP Basic) is required.",
        headers: [("WWW-Authenticate", #"Basic realm="introspection""#)])
}

/// Repository errors of the use cases that answer them directly (the key set, introspection).
extension RepositoryError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .unavailable: .unavailable
        default: .internalFailure(cause: FailureCause(self))
        }
    }
}
