internal import Foundation
internal import PasskeyClient

/// The password side of signing in (slide 7): the sign-up and sign-in of an existing user
/// (stage ①, followed by Automatic Passkey Upgrade, which `PasskeyMigrationInteractor` does), and
/// a recovery code for a user who lost every passkey.
actor SignInInteractor {
    private let client: PasskeyClient
    private let apiClient: any APIClient
    private let credentialStore: any CredentialStore
    private let authorization: PasskeyAuthorization
    private let migration: PasskeyMigrationInteractor

    init(
        client: PasskeyClient, apiClient: any APIClient, credentialStore: any CredentialStore,
        authorization: PasskeyAuthorization, migration: PasskeyMigrationInteractor
    ) {
        self.client = client
        self.apiClient = apiClient
        self.credentialStore = credentialStore
        self.authorization = authorization
        self.migration = migration
    }

    /// A new password account (the screen of slide 7 whose `.username`/`.newPassword` fields make
    /// iOS offer to save the password), signed in at once.
    func signUp(email: String, displayName: String, password: String) async throws(PasskeyClientError) -> SignedInUser {
        let email = Self.normalized(email)
        _ = try await apiClient.execute(
            CreatePasswordAccountOperation(
                email: email, displayName: displayName.trimmingCharacters(in: .whitespacesAndNewlines),
                password: password))
        return try await signIn(email: email, password: password)
    }

    /// The password sign-in of an existing user (the client holds the session's token).
    func signIn(email: String, password: String) async throws(PasskeyClientError) -> SignedInUser {
        let session = try await apiClient.execute(
            PasswordSignInOperation(email: Self.normalized(email), password: password))
        try? credentialStore.save(AuthorizationCredential(session))
        await authorization.reportSignIn()
        return SignedInUser(session)
    }

    /// Automatic Passkey Upgrade, right after `signIn(email:password:)`: never throws, because a
    /// declined or refused upgrade leaves the password session as it was (slide 40).
    func upgradeToPasskey() async -> PasskeyUpgradeOutcome {
        await migration.upgradeToPasskey()
    }

    /// A recovery code for a user who lost every passkey: a short session that may add a new
    /// passkey at once (modal).
    func signIn(email: String, recoveryCode: String) async throws(PasskeyClientError) -> SignedInUser {
        let session = try await client.signIn(email: Self.normalized(email), recoveryCode: recoveryCode)
        try? credentialStore.save(AuthorizationCredential(session))
        await authorization.reportSignIn()
        return SignedInUser(session)
    }

    /// The address as typed, without the spaces a keyboard or a paste leaves around it.
    static func normalized(_ email: String) -> String { email.trimmingCharacters(in: .whitespacesAndNewlines) }
}
