internal import PasskeyApplication

// The one place where use-case errors become HTTP problems. Every switch is exhaustive and has
// no `default:`, so a new error case breaks the build here and nowhere else.
extension PasswordAccountRegistrationError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .weakPassword:
            Problem(
                status: 400, code: .weakPassword, detail: "Passwords need at least 8 characters (at most 1024 bytes)."
            )
        case .emailTaken: Problem(status: 409, code: .emailTaken, detail: "An account with this email exists.")
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .hashingBusy: .hashingBusy
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasswordAuthenticationError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .invalidCredentials:
            Problem(status: 401, code: .invalidCredentials, detail: "The email or password is not right.")
        case .accountLocked: ProblemMapping.accountLocked
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .hashingBusy: .hashingBusy
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension RecoveryAuthenticationError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .invalidCredentials:
            Problem(status: 401, code: .invalidCredentials, detail: "The email or recovery code is not right.")
        case .accountLocked: ProblemMapping.accountLocked
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension SignOutError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasskeyRegistrationStartError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .conditionalNotAllowed:
            Problem(
                status: 403, code: .conditionalNotAllowed,
                detail: "Conditional registration needs a recent password sign-in.")
        case .reauthenticationRequired: .reauthenticationRequired
        case .passkeyLimitReached: ProblemMapping.passkeyLimitReached
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .unauthorized: .unauthorized
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasskeyRegistrationFinishError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .challengeUnavailable: ProblemMapping.challengeUnavailable
        case .verificationFailed(let failure): ProblemMapping.verificationFailed(failure)
        case .credentialExists: ProblemMapping.credentialExists
        case .unauthorized: .unauthorized
        case .passkeyLimitReached: ProblemMapping.passkeyLimitReached
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasskeyAccountRegistrationStartError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasskeyAccountRegistrationFinishError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .registrationUnavailable:
            Problem(
                status: 400, code: .registrationUnavailable,
                detail: "The registration is unknown, expired or completed.")
        case .verificationFailed(let failure): ProblemMapping.verificationFailed(failure)
        case .registrationMismatch:
            Problem(
                status: 400, code: .registrationMismatch,
                detail: "Email or display name differ from those given at start.")
        case .emailTaken: Problem(status: 409, code: .emailTaken, detail: "An account with this email exists.")
        case .credentialExists: ProblemMapping.credentialExists
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasskeyAuthenticationStartError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension PasskeyAuthenticationFinishError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let field): .invalidRequest("\(field) is invalid.")
        case .challengeUnavailable: ProblemMapping.challengeUnavailable
        case .unknownCredential:
            Problem(status: 401, code: .unknownCredential, detail: "This passkey is not registered here.")
        case .authenticationFailed:
            // The reason is logged, never told: it would help an attacker.
            Problem(status: 401, code: .authenticationFailed, detail: "The passkey sign-in could not be verified.")
        case .accountLocked: ProblemMapping.accountLocked
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension AccountManagementError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .notFound: .notFound
        case .lastCredential:
            Problem(
                status: 409, code: .lastCredential,
                detail: "This would leave the account with no way to sign in.")
        case .passkeyNotYetUsed:
            Problem(
                status: 409, code: .passkeyNotYetUsed,
                detail: "Sign in with a passkey once before removing the password.")
        case .recoveryNotSetUp:
            Problem(
                status: 409, code: .recoveryNotSetUp,
                detail: "Create recovery codes before removing the password.")
        case .unauthorized: .unauthorized
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

/// Answers shared by several errors.
enum ProblemMapping {
    static let challengeUnavailable = Problem(
        status: 400, code: .challengeUnavailable, detail: "The challenge is unknown, expired or already used.")

    static let credentialExists = Problem(
        status: 409, code: .credentialExists, detail: "This passkey is already registered.")

    static let passkeyLimitReached = Problem(
        status: 409, code: .passkeyLimitReached,
        detail: "The account holds as many passkeys as it may; delete one before adding another.")

    static func verificationFailed(_ failure: CredentialVerificationFailure) -> Problem {
        Problem(
            status: 400, code: .registrationVerificationFailed,
            detail: "The authenticator's response could not be verified.", reason: failure.reason)
    }
}

extension BearerAuthenticationError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .unauthorized: .unauthorized
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension RecentSignInError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .reauthenticationRequired: .reauthenticationRequired
        }
    }
}

extension AdoptionFiguresError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidDays: .invalidRequest("days must be a whole number from 1 to 366.")
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension EventFeedError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidLimit: .invalidRequest("limit must be a whole number from 1 to 1000.")
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}
