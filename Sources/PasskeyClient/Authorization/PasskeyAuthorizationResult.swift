/// What the platform returned for a `PasskeyAuthorizationRequest`.
public enum PasskeyAuthorizationResult: Sendable, Hashable {
    /// A new passkey (`.registration` and `.accountRegistration` requests).
    case registration(PasskeyRegistrationCredential)
    /// A sign-in (`.assertion` requests).
    case assertion(PasskeyAssertionCredential)
    /// The account-creation sheet's email, name and passkey (`.accountCreationSheet` requests).
    case accountCreation(PasskeyAccountCreation)
    /// A saved password the user picked (`.assertionOrPassword` requests).
    case password(PasskeySavedPassword)
}

/// A saved password the user picked in the combined sheet: sign in with it, then upgrade
/// (`PasskeyAuthorization.upgradeToPasskey()`). Never printed: its description and mirror redact
/// the password.
public struct PasskeySavedPassword: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The account's user name as saved (the email address).
    public let user: String
    public let password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "PasskeySavedPassword(user: \(user), password: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": "<redacted>"]) }
}

/// The iOS 26 account-creation sheet's result as a `Sendable` value
/// (`ASAuthorizationAccountCreationPlatformPublicKeyCredential`), so it can cross into an actor.
public struct PasskeyAccountCreation: Sendable, Hashable {
    /// The email address the user chose in the sheet.
    public let email: String
    /// The name the user gave, formatted; the email when the sheet returned none.
    public let displayName: String
    /// The new account's passkey.
    public let credential: PasskeyRegistrationCredential

    /// The sheet's answer (the glue builds it from the platform's credential; tests directly).
    public init(email: String, displayName: String, credential: PasskeyRegistrationCredential) {
        self.email = email
        self.displayName = displayName
        self.credential = credential
    }
}

/// How `PasskeyAuthorization.upgradeToPasskey()` ended. Never an error: the user stays signed in
/// with the password whatever happens (a failed or silent upgrade is tried again at a later sign-in).
public enum PasskeyUpgradeOutcome: Sendable, Hashable {
    /// The account has a new passkey.
    case upgraded
    /// The platform created none: the usual `.cancelled` when it chose not to (no password
    /// manager entry for this account, upgrade switched off, …), or another reason.
    case declined(PasskeyAuthorizationError)
    /// The server refused (`conditional-not-allowed` when the password sign-in is not recent or
    /// was not a password sign-in, `passkey-limit-reached`, …) or could not be reached.
    case refused(PasskeyClientError)
}
