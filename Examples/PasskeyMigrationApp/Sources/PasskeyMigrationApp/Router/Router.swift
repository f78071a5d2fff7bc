internal import Foundation
internal import Observation
internal import PasskeyClient

/// The app's Router (slide 11): which screen is up, and the composition of the screens'
/// Presenters and Interactors over one `PasskeyClient`, one `PasskeyAuthorization` and the
/// credential store (the views' `App` builds those; the tests build them with the software
/// authenticator). It listens to the client's signed-in state, so a session that ends anywhere
/// (a 401 on any screen, a sign-out) brings the sign-in screen back once.
@Observable @MainActor final class Router {
    enum Screen: Equatable {
        /// Password or passkey (button, AutoFill), with links to the others.
        case signIn
        /// (slide 7) A new password account: `.username`/`.newPassword`, so iOS saves the password.
        case passwordSignUp
        case createAccount
        case recovery
        case account
    }

    private(set) var screen: Screen
    let passwordSignIn: PasswordSignInPresenter
    let passwordSignUp: PasswordSignUpPresenter
    let passkeySignIn: PasskeySignInPresenter
    let recoverySignIn: RecoverySignInPresenter
    let accountCreation: AccountCreationPresenter
    /// The account screen of the current sign-in (a new one for each).
    private(set) var account: AccountPresenter?
    /// Who signed in, and how (the account screen suggests a new passkey after a recovery).
    private(set) var user: SignedInUser?
    /// What Automatic Passkey Upgrade did after the last password sign-in.
    private(set) var upgrade: PasswordSignInPresenter.Upgrade?

    @ObservationIgnored private let client: PasskeyClient
    @ObservationIgnored private let accountInteractor: AccountInteractor
    @ObservationIgnored private let credentialStore: any CredentialStore

    init(
        client: PasskeyClient, authorization: PasskeyAuthorization,
        credentialStore: any CredentialStore = UserDefaultsCredentialStore(), productAPI: (any ProductAPI)? = nil
    ) {
        self.client = client
        self.credentialStore = credentialStore
        let apiClient = PasskeyServerAPIClient(client: client)
        let creator = AuthenticationServicesPasskeyCredentialCreator(authorization: authorization)
        let migration = PasskeyMigrationInteractor(apiClient: apiClient, credentialCreator: creator)
        let signIn = SignInInteractor(
            client: client, apiClient: apiClient, credentialStore: credentialStore, authorization: authorization,
            migration: migration)
        passwordSignIn = PasswordSignInPresenter(interactor: signIn)
        passwordSignUp = PasswordSignUpPresenter(interactor: signIn)
        passkeySignIn = PasskeySignInPresenter(
            interactor: PasskeyAuthenticationInteractor(
                apiClient: apiClient,
                assertionRequester: AuthenticationServicesPasskeyAssertionRequester(authorization: authorization),
                credentialStore: credentialStore, authorization: authorization, migration: migration))
        recoverySignIn = RecoverySignInPresenter(interactor: signIn)
        accountCreation = AccountCreationPresenter(
            interactor: PasskeyAccountRegistrationInteractor(
                apiClient: apiClient, credentialCreator: creator,
                accountCreationRequester: AuthenticationServicesAccountCreationRequester(authorization: authorization),
                credentialStore: credentialStore, authorization: authorization))
        accountInteractor = AccountInteractor(
            client: client, authorization: authorization, migration: migration, credentialStore: credentialStore,
            productAPI: productAPI)
        // Someone signed in at an earlier launch: the account at once, no spinner; `launch()`
        // then loads the token off the main thread and goes back to sign-in if there is none.
        screen = .signIn
        if credentialStore.load() != nil { showAccount(user: nil) }
        passwordSignIn.onSignedIn = { [weak self] user, upgrade in
            self?.upgrade = upgrade
            self?.showAccount(user: user)
        }
        passwordSignIn.onFailed = { [weak self] in self?.passkeySignIn.passwordSignInFailed() }
        passwordSignUp.onSignedIn = { [weak self] user, upgrade in
            self?.upgrade = upgrade
            self?.showAccount(user: user)
        }
        passkeySignIn.onSignedIn = { [weak self] in self?.showAccount(user: $0) }
        recoverySignIn.onSignedIn = { [weak self] in self?.showAccount(user: $0) }
        accountCreation.onCreated = { [weak self] in self?.showAccount(user: $0) }
    }

    /// At launch, from a task: loads the stored token (off the main thread), offers a passkey of
    /// this device when signed out, then follows the client's signed-in state until the task is
    /// cancelled: a session that ends anywhere brings the sign-in screen back.
    func launch() async {
        await loadSession()
        // Signed out: a passkey on this device is offered at once; without one nothing shows.
        if screen == .signIn { passkeySignIn.offerPasskeyAtLaunch() }
        for await signedIn in client.signedInStates() where !signedIn && screen == .account {
            signedOut()
        }
    }

    /// Loads the stored token (off the main thread) and shows the screen it calls for.
    func loadSession() async {
        let signedIn = await client.loadStoredToken()
        if signedIn, screen != .account { showAccount(user: nil) }
        if !signedIn, screen == .account { signedOut() }
    }

    /// After a recovery or an email sign-in the user has no passkey on this device: offer one now.
    var suggestsNewPasskey: Bool { user?.method == .recovery || user?.method == .email }

    func show(_ screen: Screen) {
        guard screen != .account else { return }
        if screen != .signIn { passkeySignIn.withdrawAutoFill() }
        self.screen = screen
    }

    private func showAccount(user: SignedInUser?) {
        passkeySignIn.withdrawAutoFill()
        self.user = user
        let presenter = AccountPresenter(interactor: accountInteractor)
        presenter.onSignedOut = { [weak self] in self?.signedOut() }
        account = presenter
        screen = .account
    }

    private func signedOut() {
        account = nil
        user = nil
        upgrade = nil
        credentialStore.clear()
        passwordSignIn.reset()
        passwordSignUp.reset()
        passkeySignIn.reset()
        recoverySignIn.reset()
        accountCreation.reset()
        screen = .signIn
    }
}
