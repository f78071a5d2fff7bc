internal import PasskeyApplication

// The email flows' errors as HTTP problems (spec v3, "Email addresses and mail").
extension EmailFlowError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .mailUnavailable: ProblemMapping.mailUnavailable
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .invalidCode:
            Problem(status: 400, code: .invalidCode, detail: "The code is wrong, expired or already used.")
        case .alreadyVerified:
            Problem(status: 409, code: .emailAlreadyVerified, detail: "The email address is verified already.")
        case .emailTaken: Problem(status: 409, code: .emailTaken, detail: "An account with this email exists.")
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .unauthorized: .unauthorized
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension RecoveryEmailAuthenticationError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .mailUnavailable: ProblemMapping.mailUnavailable
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .invalidCredentials:
            Problem(status: 401, code: .invalidCredentials, detail: "The email or code is not right.")
        case .accountLocked: ProblemMapping.accountLocked
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasswordSetError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .weakPassword:
            Problem(
                status: 400, code: .weakPassword, detail: "Passwords need at least 8 characters (at most 1024 bytes)."
            )
        case .hashingBusy: .hashingBusy
        case .unauthorized: .unauthorized
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension ProblemMapping {
    static let mailUnavailable = Problem(
        status: 503, code: .mailUnavailable, detail: "This server sends no mail, so email flows are off.")
}
