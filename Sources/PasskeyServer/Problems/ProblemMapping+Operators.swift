internal import PasskeyApplication

// (v4) The operator check as HTTP problems (spec v4, "Support desk").
extension OperatorAuthorizationError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .disabled: .notFound
        case .unauthorized: .unauthorized
        case .forbidden: ProblemMapping.forbidden
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension ProblemMapping {
    static let forbidden = Problem(
        status: 403, code: .forbidden, detail: "This operator's role does not allow this.")
}
