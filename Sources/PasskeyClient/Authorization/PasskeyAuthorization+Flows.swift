internal import Foundation

/// The one-call flows: start on the server → the platform's request → finish on the server.
/// A platform failure is `.authorization(_)`, a server one `.server(_)`. Every modal flow first
/// withdraws a running AutoFill offer (`cancelAutoFill()`); the app starts it again afterwards.
extension PasskeyAuthorization {
    /// The one discoverable sign-in, as a sheet ("Sign in with a passkey"). Cancels a running
    /// AutoFill request first. The session's token is held by the client. A passkey the server
    /// no longer knows (`.unknownCredential`) is reported to the credential manager.
    public func signInWithPasskey() async throws(PasskeyClientError) -> PasskeySession {
        cancelAutoFill()
        let options = try await client.startPasskeySignIn()
        return try await finishSignIn(options, with: authorize(.assertion(options, presentation: .modal)))
    }

    /// One sheet with this device's passkeys and saved passwords for the service. A passkey signs
    /// in here (the token is held); a saved password comes back for the app to sign in with, and
    /// then to upgrade from (`upgradeToPasskey()`, right after): stage ① → ② in one tap.
    public func signInWithPasskeyOrSavedPassword() async throws(PasskeyClientError) -> PasskeyOrPasswordSignIn {
        cancelAutoFill()
        let options = try await client.startPasskeySignIn()
        let result = try await authorize(.assertionOrPassword(options))
        if case .password(let saved) = result { return .savedPassword(saved) }
        return .passkey(try await finishSignIn(options, with: result))
    }

    /// A sign-in offered at launch without ever showing UI to someone with no passkey here
    /// (`preferImmediatelyAvailableCredentials`): the sheet appears only when this device has a
    /// passkey for the service. Nil when it has none (`.notInteractive`) or the user closed the
    /// sheet; the session's token is held otherwise.
    public func signInWithImmediatelyAvailablePasskey() async throws(PasskeyClientError) -> PasskeySession? {
        cancelAutoFill()
        let options = try await client.startPasskeySignIn()
        let result: PasskeyAuthorizationResult
        do {
            result = try await perform(.assertion(options, presentation: .immediate))
        } catch .notInteractive, .cancelled {
            return nil
        } catch {
            throw .authorization(error)
        }
        return try await finishSignIn(options, with: result)
    }

    /// Automatic Passkey Upgrade, right after a password sign-in: a conditional registration
    /// the platform performs without UI when its password manager just filled this account's
    /// password. Never throws: the user stays signed in whatever happens (slide 40). The server
    /// refuses conditional mode (`.refused`, code `conditional-not-allowed`) unless the session
    /// comes from a password sign-in of the last few minutes.
    public func upgradeToPasskey() async -> PasskeyUpgradeOutcome {
        // Between two of its requests the AutoFill loop holds no request; a new generation stops
        // it from starting one under this upgrade.
        cancelAutoFill()
        let options: PasskeyRegistrationOptions
        do {
            options = try await client.startPasskeyRegistration(mode: .conditional)
        } catch {
            return .refused(error)
        }
        let credential: PasskeyRegistrationCredential
        do {
            guard case .registration(let created) = try await perform(.registration(options)) else {
                return .declined(.invalidResponse)
            }
            credential = created
        } catch {
            return .declined(error)
        }
        do {
            try await client.finishPasskeyRegistration(challengeID: options.challengeID, credential: credential)
        } catch {
            return .refused(error)
        }
        return .upgraded
    }

    /// Adds a passkey to the signed-in account with the platform's sheet (a button in the
    /// account screen; the server wants a recent sign-in). `name` is the passkey's label;
    /// the server names it after the authenticator when nil.
    public func addPasskey(name: String? = nil) async throws(PasskeyClientError) {
        cancelAutoFill()
        let options = try await client.startPasskeyRegistration(mode: .modal)
        guard case .registration(let credential) = try await authorize(.registration(options)) else {
            throw .authorization(.invalidResponse)
        }
        try await client.finishPasskeyRegistration(challengeID: options.challengeID, credential: credential, name: name)
    }

    /// A new account whose only credential is a passkey, with the email and name of the app's
    /// form. The new session's token is held by the client.
    public func createAccountWithPasskey(email: String, displayName: String) async throws(PasskeyClientError)
        -> PasskeySession
    {
        cancelAutoFill()
        let options = try await client.startPasskeyAccountRegistration(email: email, displayName: displayName)
        guard case .registration(let credential) = try await authorize(.accountRegistration(options)) else {
            throw .authorization(.invalidResponse)
        }
        return try await client.finishPasskeyAccountRegistration(
            registrationID: options.registrationID, email: email, displayName: displayName, credential: credential)
    }

    /// A new account with the system's account-creation sheet, which asks for the email and
    /// name itself (`ASAuthorizationAccountCreationProvider`). The new session's token is held.
    @available(iOS 26.0, macOS 26.0, *)
    public func createAccountWithPasskeySheet() async throws(PasskeyClientError) -> PasskeySession {
        cancelAutoFill()
        let options = try await client.startPasskeyAccountRegistration()
        guard case .accountCreation(let creation) = try await authorize(.accountCreationSheet(options)) else {
            throw .authorization(.invalidResponse)
        }
        return try await client.finishPasskeyAccountRegistration(
            registrationID: options.registrationID, email: creation.email, displayName: creation.displayName,
            credential: creation.credential)
    }

    /// `perform` with its error as the flows' error.
    func authorize(_ request: PasskeyAuthorizationRequest) async throws(PasskeyClientError)
        -> PasskeyAuthorizationResult
    {
        do {
            return try await perform(request)
        } catch {
            throw .authorization(error)
        }
    }

    /// Finishes a sign-in on the server; an `.unknownCredential` answer is signalled first.
    func finishSignIn(_ options: PasskeySignInOptions, with result: PasskeyAuthorizationResult)
        async throws(PasskeyClientError) -> PasskeySession
    {
        guard case .assertion(let assertion) = result else { throw .authorization(.invalidResponse) }
        do {
            let session = try await client.finishPasskeySignIn(challengeID: options.challengeID, assertion: assertion)
            await reportAfterSignIn(relyingPartyID: options.relyingPartyID)
            return session
        } catch {
            if error.code == .unknownCredential {
                await signals.reportUnknownCredential(
                    relyingPartyID: options.relyingPartyID, credentialID: assertion.credentialID)
            }
            throw error
        }
    }
}

/// What `signInWithPasskeyOrSavedPassword()` came to.
public enum PasskeyOrPasswordSignIn: Sendable, Hashable {
    /// Signed in with a passkey; the session's token is held.
    case passkey(PasskeySession)
    /// The user picked a saved password: sign in with it (`PasskeyClient.signIn(email:password:)`
    /// or the bridge's `signIn(email:password:)`), then `upgradeToPasskey()`.
    case savedPassword(PasskeySavedPassword)
}
