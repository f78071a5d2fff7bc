internal import PasskeyApplication

// Where each ceremony failed and why: the `step` and `reason` of its log line and metric. One
// exhaustive switch per error; the reasons are the contract's camelCase names.

extension PasswordAuthenticationError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .invalidRequest: ("password.parse", "invalidRequest")
        case .invalidCredentials: ("password.verify", "invalidCredentials")
        case .accountLocked: ("password.session", "accountLocked")
        case .rateLimited: ("password.limit", "rateLimited")
        case .hashingBusy: ("password.verify", "hashingBusy")
        case .unavailable: ("password", "databaseUnavailable")
        case .internalFailure: ("password", "internal")
        }
    }
}

extension RecoveryAuthenticationError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .invalidRequest: ("recovery.parse", "invalidRequest")
        case .invalidCredentials: ("recovery.redeem", "invalidCredentials")
        case .accountLocked: ("recovery.redeem", "accountLocked")
        case .rateLimited: ("recovery.limit", "rateLimited")
        case .unavailable: ("recovery", "databaseUnavailable")
        case .internalFailure: ("recovery", "internal")
        }
    }
}

extension PasskeyRegistrationStartError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .conditionalNotAllowed: ("registration.start", "conditionalNotAllowed")
        case .reauthenticationRequired: ("registration.start", "reauthenticationRequired")
        case .passkeyLimitReached: ("registration.start", "passkeyLimitReached")
        case .rateLimited: ("registration.start", "rateLimited")
        case .unauthorized: ("registration.start", "accountGone")
        case .unavailable: ("registration.start", "databaseUnavailable")
        case .internalFailure: ("registration.start", "internal")
        }
    }
}

extension PasskeyRegistrationFinishError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .invalidRequest: ("registration.parse", "invalidRequest")
        case .challengeUnavailable: ("registration.consumeChallenge", "challengeUnavailable")
        case .verificationFailed(let failure): ("registration.verifyCredential", failure.reason)
        case .credentialExists: ("registration.storeCredential", "credentialExists")
        case .unauthorized: ("registration.storeCredential", "accountGone")
        case .passkeyLimitReached: ("registration.storeCredential", "passkeyLimitReached")
        case .unavailable: ("registration", "databaseUnavailable")
        case .internalFailure: ("registration", "internal")
        }
    }
}

extension PasskeyAccountRegistrationStartError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .invalidRequest: ("accountRegistration.start", "invalidRequest")
        case .rateLimited: ("accountRegistration.start", "rateLimited")
        case .unavailable: ("accountRegistration.start", "databaseUnavailable")
        case .internalFailure: ("accountRegistration.start", "internal")
        }
    }
}

extension PasskeyAccountRegistrationFinishError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .invalidRequest: ("accountRegistration.parse", "invalidRequest")
        case .registrationUnavailable: ("accountRegistration.load", "registrationUnavailable")
        case .registrationMismatch: ("accountRegistration.load", "registrationMismatch")
        case .verificationFailed(let failure): ("accountRegistration.verifyCredential", failure.reason)
        case .emailTaken: ("accountRegistration.complete", "emailTaken")
        case .credentialExists: ("accountRegistration.complete", "credentialExists")
        case .rateLimited: ("accountRegistration.complete", "rateLimited")
        case .unavailable: ("accountRegistration", "databaseUnavailable")
        case .internalFailure: ("accountRegistration", "internal")
        }
    }
}

extension PasskeyAuthenticationStartError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .rateLimited: ("authentication.start", "rateLimited")
        case .unavailable: ("authentication.start", "databaseUnavailable")
        case .internalFailure: ("authentication.start", "internal")
        }
    }
}

extension PasskeyAuthenticationFinishError: CeremonyFailure {
    var failure: (step: String, reason: String) {
        switch self {
        case .invalidRequest: ("authentication.parse", "invalidRequest")
        case .challengeUnavailable: ("authentication.consumeChallenge", "challengeUnavailable")
        case .unknownCredential: ("authentication.lookupCredential", "unknownCredential")
        case .authenticationFailed(let failure): ("authentication.verifyAssertion", failure.reason)
        case .accountLocked: ("authentication.recordAssertion", "accountLocked")
        case .unavailable: ("authentication", "databaseUnavailable")
        case .internalFailure: ("authentication", "internal")
        }
    }
}
