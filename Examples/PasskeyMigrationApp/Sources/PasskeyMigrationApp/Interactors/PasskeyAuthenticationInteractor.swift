internal import Foundation
internal import PasskeyClient

/// Signing in with a passkey (slides 61–76): the coordination the slides show, start → sheet →
/// finish → store, over the app's `APIClient`, the AuthenticationServices requester and the
/// credential store. The AutoFill offer of the email field is the library's
/// (`signInWithAutoFill()`: it keeps itself offered, see docs/ios.md); its session is stored the
/// same way.
///
/// An actor, as in the talk's architecture: the Presenter awaits it and never touches the client.
/// `PasskeyAuthorization` is `@MainActor` (it drives `ASAuthorizationController`, which is UI);
/// a main-actor class is `Sendable`, so the actor holds it and awaits it, and only `Sendable`
/// values (`PasskeySignInOptions`, `PasskeyAssertionCredential`, `PasskeySession`) cross.
actor PasskeyAuthenticationInteractor {
    private let apiClient: any APIClient
    private let assertionRequester: any PasskeyAssertionRequester
    private let credentialStore: any CredentialStore
    private let authorization: PasskeyAuthorization
    private let migration: PasskeyMigrationInteractor

    init(
        apiClient: any APIClient, assertionRequester: any PasskeyAssertionRequester,
        credentialStore: any CredentialStore, authorization: PasskeyAuthorization, migration: PasskeyMigrationInteractor
    ) {
        self.apiClient = apiClient
        self.assertionRequester = assertionRequester
        self.credentialStore = credentialStore
        self.authorization = authorization
        self.migration = migration
    }

    /// One sheet with this device's passkeys and saved passwords (stage ① → ② in one tap): a
    /// passkey signs in; a saved password signs in with the password and is upgraded at once
    /// (Automatic Passkey Upgrade; its outcome is returned, never an error).
    func signInWithPasskeyOrSavedPassword() async throws(PasskeyClientError)
        -> (user: SignedInUser, upgrade: PasskeyUpgradeOutcome?)
    {
        switch try await authorization.signInWithPasskeyOrSavedPassword() {
        case .passkey(let session):
            return (await store(session), nil)
        case .savedPassword(let saved):
            let session = try await apiClient.execute(
                PasswordSignInOperation(email: saved.user, password: saved.password))
            let user = await store(session)
            return (user, await migration.upgradeToPasskey())
        }
    }

    /// The "Sign in with a passkey" button.
    func signInWithPasskey() async throws(PasskeyClientError) -> SignedInUser {
        // 1. The server's options: a challenge for a discoverable passkey.
        let options = try await apiClient.execute(StartPasskeyAuthenticationOperation())
        // 2. The system sheet: the user picks a passkey and unlocks it (Face ID).
        let assertion = try await assertionRequester.requestAssertion(options)
        // 3. The server verifies the assertion and opens a session.
        let session: PasskeySession
        do {
            session = try await apiClient.execute(
                FinishPasskeyAuthenticationOperation(challengeID: options.challengeID, assertion: assertion))
        } catch {
            // A passkey the server no longer knows: the device stops offering it.
            if error.code == .unknownCredential { await authorization.reportUnknownCredential(assertion.credentialID) }
            throw error
        }
        // 4. Store who signed in, and tell the credential manager what the server accepts.
        return await store(session)
    }

    /// At launch, signed out: the sheet appears only if this device holds a passkey for the
    /// service (`preferImmediatelyAvailableCredentials`); nil when it holds none or the user
    /// closed the sheet, and nothing was shown to someone without a passkey.
    func signInWithImmediatelyAvailablePasskey() async throws(PasskeyClientError) -> SignedInUser? {
        guard let session = try await authorization.signInWithImmediatelyAvailablePasskey() else { return nil }
        return await store(session)
    }

    /// The AutoFill offer of the email field: returns when the user picks a passkey in the
    /// QuickType bar; throws `.authorization(.cancelled)` when it is withdrawn.
    func signInWithAutoFill() async throws(PasskeyClientError) -> SignedInUser {
        let session = try await authorization.signInWithAutoFill()
        return await store(session)
    }

    /// The email field gained focus: replace a stale challenge (never on a timer).
    func refreshAutoFill() async -> Bool { await authorization.refreshAutoFill() }

    /// Whether the offer is showing now.
    func isOfferingAutoFill() async -> Bool { await authorization.isOfferingAutoFill }

    /// Withdraws the offer (the field went away).
    func cancelAutoFill() async { await authorization.cancelAutoFill() }

    /// Slide 76, "store the credential": a failed store does not fail the sign-in (the server's
    /// session stands; the app asks again at the next launch). Then the signals Apple suggests.
    private func store(_ session: PasskeySession) async -> SignedInUser {
        try? credentialStore.save(AuthorizationCredential(session))
        await authorization.reportSignIn()
        return SignedInUser(session)
    }
}
