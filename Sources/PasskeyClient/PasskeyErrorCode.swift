package import PasskeyWire

/// The `code` of a problem+json answer. Open: a code this client does not know yet still reaches
/// the app (as `.server` with its raw value), so a `switch` over it ends with `default:`.
/// Every code of the contract has its constant, made from the contract's own list (`ErrorCode`,
/// shared with the server, and kept out of the public API), so the two lists cannot drift apart.
public struct PasskeyErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// As the server wrote it, e.g. `email-taken`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The client's value of one of the contract's codes.
    package init(_ code: ErrorCode) { self.rawValue = code.rawValue }

    /// The contract's code, nil for one this version of the contract does not list.
    package var contractCode: ErrorCode? { ErrorCode(rawValue: rawValue) }

    public var description: String { rawValue }

    public static let invalidRequest = Self(.invalidRequest)
    public static let weakPassword = Self(.weakPassword)
    public static let emailTaken = Self(.emailTaken)
    public static let invalidCredentials = Self(.invalidCredentials)
    public static let rateLimited = Self(.rateLimited)
    public static let unauthorized = Self(.unauthorized)
    public static let conditionalNotAllowed = Self(.conditionalNotAllowed)
    public static let challengeUnavailable = Self(.challengeUnavailable)
    public static let registrationUnavailable = Self(.registrationUnavailable)
    public static let registrationMismatch = Self(.registrationMismatch)
    public static let registrationVerificationFailed = Self(.registrationVerificationFailed)
    public static let credentialExists = Self(.credentialExists)
    public static let authenticationFailed = Self(.authenticationFailed)
    public static let unknownCredential = Self(.unknownCredential)
    public static let lastCredential = Self(.lastCredential)
    public static let passkeyNotYetUsed = Self(.passkeyNotYetUsed)
    public static let notFound = Self(.notFound)
    public static let methodNotAllowed = Self(.methodNotAllowed)
    public static let payloadTooLarge = Self(.payloadTooLarge)
    public static let serviceUnavailable = Self(.serviceUnavailable)
    public static let `internal` = Self(.internal)
    public static let reauthenticationRequired = Self(.reauthenticationRequired)
    public static let recoveryNotSetUp = Self(.recoveryNotSetUp)
    public static let passkeyLimitReached = Self(.passkeyLimitReached)
    public static let invalidCode = Self(.invalidCode)
    public static let emailAlreadyVerified = Self(.emailAlreadyVerified)
    public static let mailUnavailable = Self(.mailUnavailable)
    /// (v4) Tokens are off on the server (no `DATA_ENCRYPTION_KEY`).
    public static let tokensUnavailable = Self(.tokensUnavailable)
    /// (v4) Webhooks cannot be registered on the server (no `DATA_ENCRYPTION_KEY`).
    public static let webhooksUnavailable = Self(.webhooksUnavailable)
    /// (v4) An operator's role does not allow the endpoint.
    public static let forbidden = Self(.forbidden)
    /// (v4) The support desk locked the account: the credential was right, but no sign-in until
    /// it is unlocked.
    public static let accountLocked = Self(.accountLocked)
}
