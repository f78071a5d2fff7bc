/// One request for the platform's passkey UI, built from the server's options as given.
///
/// A value: the bridge (`PasskeyAuthorization`) hands it to a `PasskeyAuthorizationControllerFactory`,
/// which turns it into the platform's request (`ASAuthorizationController` on Apple systems, a
/// software authenticator in tests).
public enum PasskeyAuthorizationRequest: Sendable, Hashable {
    /// A new passkey for the signed-in account: a button (`requestStyle` `.standard`) or
    /// Automatic Passkey Upgrade (`.conditional`), as the options' `mode` says.
    case registration(PasskeyRegistrationOptions)
    /// The discoverable sign-in: a sheet (`.modal`) or the QuickType bar of a username field
    /// (`.autoFill`, `performAutoFillAssistedRequests`).
    case assertion(PasskeySignInOptions, presentation: PasskeyAssertionPresentation)
    /// The passkey of a new account whose email and name the app's form collected.
    case accountRegistration(PasskeyAccountRegistrationOptions)
    /// (iOS 26, macOS 26) The system's account-creation sheet: it asks for the email and name
    /// and returns them with the passkey.
    case accountCreationSheet(PasskeyAccountRegistrationOptions)
    /// One sheet offering this device's passkeys **and** its saved passwords for the service
    /// (`ASAuthorizationPasswordProvider` next to the assertion request): the talk's stage ① → ②
    /// in one tap. Answered `.assertion` or `.password`.
    case assertionOrPassword(PasskeySignInOptions)

    /// The relying party the request is for.
    public var relyingPartyID: String {
        switch self {
        case .registration(let options): options.relyingPartyID
        case .assertion(let options, _), .assertionOrPassword(let options): options.relyingPartyID
        case .accountRegistration(let options), .accountCreationSheet(let options): options.relyingPartyID
        }
    }
}

/// How a sign-in request is shown.
public enum PasskeyAssertionPresentation: Sendable, Hashable {
    /// A sheet, when the user taps "Sign in with a passkey" (`performRequests()`).
    case modal
    /// Offered in the keyboard's QuickType bar of a username field (`performAutoFillAssistedRequests()`).
    case autoFill
    /// A sheet only if this device has a passkey for the service, else no UI at all: the request
    /// ends `.notInteractive` at once (`performRequests(options: .preferImmediatelyAvailableCredentials)`,
    /// iOS 16 / macOS 13). For an offer at launch that never shows a QR code to a new user.
    case immediate
}
