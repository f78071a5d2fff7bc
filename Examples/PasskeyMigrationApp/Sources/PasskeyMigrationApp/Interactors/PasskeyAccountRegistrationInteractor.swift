internal import Foundation
internal import PasskeyClient

/// A new user's account, whose only credential is a passkey (slides 46–60): from the app's form
/// (email and name typed, then the passkey sheet), or from the iOS 26 account-creation sheet
/// (the system asks for them). Start → sheet → finish → store.
actor PasskeyAccountRegistrationInteractor {
    private let apiClient: any APIClient
    private let credentialCreator: any PasskeyCredentialCreator
    private let accountCreationRequester: any AccountCreationRequester
    private let credentialStore: any CredentialStore
    private let authorization: PasskeyAuthorization

    init(
        apiClient: any APIClient, credentialCreator: any PasskeyCredentialCreator,
        accountCreationRequester: any AccountCreationRequester, credentialStore: any CredentialStore,
        authorization: PasskeyAuthorization
    ) {
        self.apiClient = apiClient
        self.credentialCreator = credentialCreator
        self.accountCreationRequester = accountCreationRequester
        self.credentialStore = credentialStore
        self.authorization = authorization
    }

    /// The form: email address and name first, then the passkey sheet.
    func createAccount(email rawEmail: String, displayName rawName: String) async throws(PasskeyClientError)
        -> SignedInUser
    {
        let email = SignInInteractor.normalized(rawEmail)
        let displayName = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        let options = try await apiClient.execute(
            StartPasskeyAccountRegistrationOperation(email: email, displayName: displayName))
        let credential = try await credentialCreator.createCredential(forNewAccount: options)
        let session = try await apiClient.execute(
            FinishPasskeyAccountRegistrationOperation(
                registrationID: options.registrationID, email: email, displayName: displayName,
                credential: credential))
        return await store(session)
    }

    /// The system sheet: nothing typed in the app; it returns the address and name at the end.
    @available(iOS 26.0, macOS 26.0, *)
    func createAccountWithSheet() async throws(PasskeyClientError) -> SignedInUser {
        let options = try await apiClient.execute(
            StartPasskeyAccountRegistrationOperation(email: nil, displayName: nil))
        let creation = try await accountCreationRequester.requestAccountCreation(options)
        let session = try await apiClient.execute(
            FinishPasskeyAccountRegistrationOperation(
                registrationID: options.registrationID, email: creation.email, displayName: creation.displayName,
                credential: creation.credential))
        return await store(session)
    }

    private func store(_ session: PasskeySession) async -> SignedInUser {
        try? credentialStore.save(AuthorizationCredential(session))
        await authorization.reportSignIn()
        return SignedInUser(session)
    }
}
