/// Why the platform's passkey sheet (`ASAuthorizationController`) ended without a credential.
///
/// Built from `ASAuthorizationError.Code`'s raw values (AuthenticationServices' error domain,
/// codes 1000…1010) so the mapping is plain Swift, tested on every platform; codes this
/// version does not know stay readable as `.other(code:)`.
public enum PasskeyAuthorizationError: Error, Sendable, Hashable {
    /// The user closed the sheet, or the calling task was cancelled (`controller.cancel()`).
    case cancelled
    /// A registration matched one of `excludedCredentials`: this device holds a passkey for the
    /// account already (iOS 18 / macOS 15; earlier systems report `.failed` or `.unknown`).
    case matchedExcludedCredential
    /// The system could not handle the request (no passkey for this app's associated domain, …).
    case notHandled
    /// The request failed (an associated-domain check, a malformed request, …).
    case failed
    /// The system refused what it was given or what it received.
    case invalidResponse
    /// The request needed UI, but was asked not to show any (AutoFill, `preferImmediatelyAvailableCredentials`).
    case notInteractive
    /// AuthenticationServices gave no reason (code 1000).
    case unknown
    /// (iOS 26) The user chose Sign in with Apple in the account-creation sheet.
    case preferSignInWithApple
    /// (iOS 26) The device is not set up to create passkeys (no passcode, no iCloud Keychain, …).
    case deviceNotConfiguredForPasskeyCreation
    /// A code this version does not know (a later system's), as AuthenticationServices gave it.
    case other(code: Int)
    /// Not the platform's: another request of this `PasskeyAuthorization` (a sheet, an upgrade)
    /// is showing, and this one was not started. Try again when it has ended.
    case requestInProgress

    /// The case for one `ASAuthorizationError.Code` raw value.
    public init(code: Int) {
        switch code {
        case 1000: self = .unknown
        case 1001: self = .cancelled
        case 1002: self = .invalidResponse
        case 1003: self = .notHandled
        case 1004: self = .failed
        case 1005: self = .notInteractive
        case 1006: self = .matchedExcludedCredential
        case 1009: self = .preferSignInWithApple
        case 1010: self = .deviceNotConfiguredForPasskeyCreation
        default: self = .other(code: code)
        }
    }
}
