/// The `code` of every problem+json answer: the contract's list (../shared/spec.md, "Error
/// codes"). The server can only answer with these, and a client can switch over them.
public enum ErrorCode: String, Codable, Sendable, Hashable, CaseIterable {
    case invalidRequest = "invalid-request"
    case weakPassword = "weak-password"
    case emailTaken = "email-taken"
    case invalidCredentials = "invalid-credentials"
    case rateLimited = "rate-limited"
    case unauthorized = "unauthorized"
    case conditionalNotAllowed = "conditional-not-allowed"
    case challengeUnavailable = "challenge-unavailable"
    case registrationUnavailable = "registration-unavailable"
    case registrationMismatch = "registration-mismatch"
    case registrationVerificationFailed = "registration-verification-failed"
    case credentialExists = "credential-exists"
    case authenticationFailed = "authentication-failed"
    case unknownCredential = "unknown-credential"
    case lastCredential = "last-credential"
    case passkeyNotYetUsed = "passkey-not-yet-used"
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case payloadTooLarge = "payload-too-large"
    case serviceUnavailable = "service-unavailable"
    case `internal` = "internal"
    case reauthenticationRequired = "reauthentication-required"
    case recoveryNotSetUp = "recovery-not-set-up"
    /// (v3) The account holds `MAX_PASSKEYS_PER_ACCOUNT` passkeys already (409).
    case passkeyLimitReached = "passkey-limit-reached"
    /// (v3) A mailed code that is wrong, used, expired or void (400, Bearer endpoints).
    case invalidCode = "invalid-code"
    /// (v3) The account's address is verified already (409).
    case emailAlreadyVerified = "email-already-verified"
    /// (v3) Mail is off (`MAIL_URL` unset): the email endpoints answer 503.
    case mailUnavailable = "mail-unavailable"
    /// (v4) Tokens are off (no `DATA_ENCRYPTION_KEY`): 503.
    case tokensUnavailable = "tokens-unavailable"
    /// (v4) Webhooks cannot be registered (no `DATA_ENCRYPTION_KEY`): 503.
    case webhooksUnavailable = "webhooks-unavailable"
    /// (v4) A known operator whose role does not allow the endpoint (403).
    case forbidden = "forbidden"
    /// (v4) The account is locked by the support desk: a sign-in with the right credential (403),
    /// or locking it again (409).
    case accountLocked = "account-locked"
}
