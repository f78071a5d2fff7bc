internal import Foundation
internal import PasskeyClient

/// Adding a passkey to an existing account (slides 17–42): the button of the account screen
/// (modal), and Automatic Passkey Upgrade right after a password sign-in (conditional: no UI,
/// UP = 0 and UV = 0 accepted on that path only). Start → creator → finish, as the slides show.
actor PasskeyMigrationInteractor {
    private let apiClient: any APIClient
    private let credentialCreator: any PasskeyCredentialCreator

    init(apiClient: any APIClient, credentialCreator: any PasskeyCredentialCreator) {
        self.apiClient = apiClient
        self.credentialCreator = credentialCreator
    }

    /// The "Add a passkey" button (the server wants a recent sign-in).
    func addPasskey(name: String? = nil) async throws(PasskeyClientError) {
        // 1. Options from the server: the challenge, the user, the passkeys to exclude.
        let options = try await apiClient.execute(StartPasskeyRegistrationOperation(mode: .modal))
        // 2. The system sheet creates the passkey.
        let credential = try await credentialCreator.createCredential(options)
        // 3. The server verifies and stores it.
        try await apiClient.execute(
            FinishPasskeyRegistrationOperation(challengeID: options.challengeID, credential: credential, name: name))
    }

    /// Automatic Passkey Upgrade, right after a password sign-in. Never throws: the user stays
    /// signed in whatever happens (slide 40).
    func upgradeToPasskey() async -> PasskeyUpgradeOutcome {
        let options: PasskeyRegistrationOptions
        do {
            options = try await apiClient.execute(StartPasskeyRegistrationOperation(mode: .conditional))
        } catch {
            return .refused(error)  // e.g. conditional-not-allowed: the sign-in is not recent
        }
        let credential: PasskeyRegistrationCredential
        do {
            credential = try await credentialCreator.createCredential(options)
        } catch {
            if case .authorization(let reason) = error { return .declined(reason) }
            return .refused(error)
        }
        do {
            try await apiClient.execute(
                FinishPasskeyRegistrationOperation(challengeID: options.challengeID, credential: credential, name: nil))
        } catch {
            return .refused(error)
        }
        return .upgraded
    }
}
