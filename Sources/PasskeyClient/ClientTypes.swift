public import Foundation

/// Which registration flow: a button (`modal`), or Automatic Passkey Upgrade (`conditional`,
/// right after a password sign-in; the platform creates the passkey without asking).
public enum PasskeyRegistrationMode: String, Sendable, Hashable {
    case modal
    case conditional
}

/// How the platform shows a registration (`ASAuthorizationPublicKeyCredentialRegistrationRequest.requestStyle`).
public enum PasskeyRequestStyle: Sendable, Hashable {
    /// A sheet the user confirms.
    case standard
    /// Created without UI when the password manager just filled this account's password.
    case conditional
}

/// The server's `userVerification` (WebAuthn), the platform's `userVerificationPreference`.
public enum PasskeyUserVerification: String, Sendable, Hashable {
    case required
    case preferred
    case discouraged
}

/// The server's `attestation` conveyance (WebAuthn), the platform's `attestationPreference`.
public enum PasskeyAttestationPreference: String, Sendable, Hashable {
    case none
    case indirect
    case direct
    case enterprise
}

/// What the platform needs to create a passkey for the signed-in account
/// (`ASAuthorizationPlatformPublicKeyCredentialProvider.createCredentialRegistrationRequest`).
public struct PasskeyRegistrationOptions: Sendable, Hashable {
    /// Give it back with the finish call.
    public let challengeID: String
    public let relyingPartyID: String
    public let relyingPartyName: String
    public let challenge: Data
    public let userID: Data
    public let userName: String
    public let displayName: String
    public let mode: PasskeyRegistrationMode
    /// Passkeys the account already has (so the same authenticator is not registered twice).
    public let excludedCredentialIDs: [Data]
    /// `publicKey.authenticatorSelection.userVerification`: `.discouraged` for a conditional upgrade.
    public let userVerification: PasskeyUserVerification
    /// `publicKey.attestation`: `.direct` when the server checks authenticator models.
    public let attestation: PasskeyAttestationPreference
    public let expiresAt: Date

    /// The platform's request style for `mode`.
    public var requestStyle: PasskeyRequestStyle { mode == .conditional ? .conditional : .standard }
}

/// What the platform needs to create the passkey of a new account. `userName` and `displayName`
/// are empty when none were given at start (the iOS 26 account-creation sheet asks for them).
public struct PasskeyAccountRegistrationOptions: Sendable, Hashable {
    public let registrationID: String
    public let relyingPartyID: String
    public let challenge: Data
    public let userID: Data
    public let userName: String
    public let displayName: String
    /// `publicKey.authenticatorSelection.userVerification`.
    public let userVerification: PasskeyUserVerification
    /// `publicKey.attestation`.
    public let attestation: PasskeyAttestationPreference
    public let expiresAt: Date
}

/// What the platform needs for the one discoverable sign-in
/// (`createCredentialAssertionRequest(challenge:)`, no username first).
public struct PasskeySignInOptions: Sendable, Hashable {
    public let challengeID: String
    public let relyingPartyID: String
    public let challenge: Data
    /// `publicKey.userVerification` (`.required` by default policy).
    public let userVerification: PasskeyUserVerification
    /// `publicKey.allowCredentials`: empty for this server's discoverable sign-in.
    public let allowedCredentialIDs: [Data]
    public let expiresAt: Date
}

/// A new passkey as the platform returns it (`ASAuthorizationPlatformPublicKeyCredentialRegistration`).
public struct PasskeyRegistrationCredential: Sendable, Hashable {
    public let credentialID: Data
    public let rawClientDataJSON: Data
    public let rawAttestationObject: Data
    /// e.g. `["internal", "hybrid"]`; empty when the platform does not say.
    public let transports: [String]

    public init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data, transports: [String] = []) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
        self.transports = transports
    }
}

/// A sign-in as the platform returns it (`ASAuthorizationPlatformPublicKeyCredentialAssertion`).
public struct PasskeyAssertionCredential: Sendable, Hashable {
    public let credentialID: Data
    public let rawClientDataJSON: Data
    public let rawAuthenticatorData: Data
    public let signature: Data
    /// The user handle; required by this server, which finds the account by it.
    public let userID: Data?

    public init(
        credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data?
    ) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
        self.userID = userID
    }
}
