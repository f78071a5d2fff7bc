internal import Foundation
internal import PasskeyClient

/// The signed-in account: its passkeys (list, rename, add, delete), recovery codes, stage ③
/// (removing the password), signing out and deleting the account.
///
/// Every change answers with the account as the server has it afterwards, so the screen never
/// shows a guess. Deleting a passkey or the account goes through `PasskeyAuthorization`, which
/// also tells the system's credential manager (the device stops offering a passkey that is gone);
/// it reaches that `@MainActor` class as `PasskeyAuthenticationInteractor` does. Adding a passkey
/// is `PasskeyMigrationInteractor`'s (slides 17–39); removing the password and deleting the
/// account also tell the password managers the saved password is unused.
actor AccountInteractor {
    private let client: PasskeyClient
    private let authorization: PasskeyAuthorization
    private let migration: PasskeyMigrationInteractor
    private let credentialStore: any CredentialStore
    private let productAPI: (any ProductAPI)?

    init(
        client: PasskeyClient, authorization: PasskeyAuthorization, migration: PasskeyMigrationInteractor,
        credentialStore: any CredentialStore, productAPI: (any ProductAPI)? = nil
    ) {
        self.client = client
        self.authorization = authorization
        self.migration = migration
        self.credentialStore = credentialStore
        self.productAPI = productAPI
    }

    /// The user's reports from the product's own backend: a short-lived JWT for its audience
    /// (`serviceToken(audience:)`, kept and renewed by the client) as the bearer. Nil without a
    /// product API.
    func productReports() async throws -> [String]? {
        guard let productAPI else { return nil }
        let token = try await client.serviceToken(audience: productAPI.audience)
        return try await productAPI.reports(bearer: token.token)
    }

    func summary() async throws(PasskeyClientError) -> AccountSummary {
        AccountSummary(try await client.account())
    }

    func renamePasskey(credentialID: Data, to name: String) async throws(PasskeyClientError) -> AccountSummary {
        _ = try await client.renamePasskey(
            credentialID: credentialID, to: name.trimmingCharacters(in: .whitespacesAndNewlines))
        return try await summary()
    }

    /// Adds a passkey with the system sheet (modal: needs a recent sign-in).
    func addPasskey() async throws(PasskeyClientError) -> AccountSummary {
        try await migration.addPasskey()
        return try await summary()
    }

    /// Deletes a passkey (needs a recent sign-in), then reports the remaining ones to the system.
    func deletePasskey(credentialID: Data) async throws(PasskeyClientError) -> AccountSummary {
        try await authorization.deletePasskey(credentialID: credentialID)
        return try await summary()
    }

    /// A new set of 10 recovery codes (every earlier one stops working). They exist only in this
    /// answer: the app shows them once and never stores them.
    func createRecoveryCodes() async throws(PasskeyClientError) -> [String] {
        try await client.createRecoveryCodes().codes
    }

    /// Stage ③: the account keeps only its passkeys (the server checks that one has signed in and
    /// that recovery is set up).
    func removePassword() async throws(PasskeyClientError) -> AccountSummary {
        try await authorization.removePassword()
        return try await summary()
    }

    /// Ends this session. When the server cannot be told (offline), the token is forgotten
    /// anyway: signing out on this device must always work.
    func signOut() async {
        do throws(PasskeyClientError) {
            try await client.signOut()
        } catch {
            client.setAccessToken(nil)
        }
        credentialStore.clear()
    }

    /// Forgets a session the server no longer knows (expired, ended on another device).
    func forgetSession() {
        client.setAccessToken(nil)
        credentialStore.clear()
    }

    /// Deletes the account (needs a recent sign-in); the system is told its passkeys are gone,
    /// and its password unused.
    func deleteAccount() async throws(PasskeyClientError) {
        try await authorization.deleteAccount()
        credentialStore.clear()
    }
}
