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

// (v4) The support desk's account requests as HTTP problems.
extension SupportDeskError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let detail): .invalidRequest(detail)
        case .notFound: .notFound
        case .alreadyLocked:
            Problem(status: 409, code: .accountLocked, detail: "This account is locked already.")
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension OperatorRecoveryCodeError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidEmail: .invalidRequest("email is not an email address.")
        case .unknownEmail, .unknownAccount: .notFound
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension ProblemMapping {
    /// (v4) A sign-in with the right credential of a locked account (spec v4, "Support desk").
    static let accountLocked = Problem(
        status: 403, code: .accountLocked,
        detail: "This account is locked by the support desk. Contact support to unlock it.")

    static let forbidden = Problem(
        status: 403, code: .forbidden, detail: "This operator's role does not allow this.")
}
