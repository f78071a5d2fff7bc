internal import Foundation
internal import Observation
internal import PasskeyClient

/// The app's root: which screen is up, and the composition of Presenters and Interactors over one
/// `PasskeyClient` and one `PasskeyAuthorization` (the views' `App` builds those two; the tests
/// build them with the software authenticator).
@Observable @MainActor final class AppPresenter {
    enum Screen: Equatable {
        /// Password or passkey (button, AutoFill), with links to the other two.
        case signIn
        case createAccount
        case recovery
        case account
    }

    private(set) var screen: Screen
    let passwordSignIn: PasswordSignInPresenter
    let passkeySignIn: PasskeySignInPresenter
    let recoverySignIn: RecoverySignInPresenter
    let accountCreation: AccountCreationPresenter
    /// The account screen of the current sign-in (a new one for each).
    private(set) var account: AccountPresenter?
    /// Who signed in, and how (the account screen suggests a new passkey after a recovery).
    private(set) var user: SignedInUser?
    /// What Automatic Passkey Upgrade did after the last password sign-in.
    private(set) var upgrade: PasswordSignInPresenter.Upgrade?

    @ObservationIgnored private let accountInteractor: AccountInteractor

    init(client: PasskeyClient, authorization: PasskeyAuthorization) {
        let signIn = SignInInteractor(client: client, authorization: authorization)
        passwordSignIn = PasswordSignInPresenter(interactor: signIn)
        passkeySignIn = PasskeySignInPresenter(interactor: signIn)
        recoverySignIn = RecoverySignInPresenter(interactor: signIn)
        accountCreation = AccountCreationPresenter(
            interactor: AccountCreationInteractor(authorization: authorization))
        accountInteractor = AccountInteractor(client: client, authorization: authorization)
        // A token kept from an earlier launch: straight to the account (a 401 there signs out).
        screen = .signIn
        if client.accessToken != nil { showAccount(user: nil) }
        passwordSignIn.onSignedIn = { [weak self] user, upgrade in
            self?.upgrade = upgrade
            self?.showAccount(user: user)
        }
        passkeySignIn.onSignedIn = { [weak self] in self?.showAccount(user: $0) }
        recoverySignIn.onSignedIn = { [weak self] in self?.showAccount(user: $0) }
        accountCreation.onCreated = { [weak self] in self?.showAccount(user: $0) }
    }

    /// After a recovery or an email sign-in the user has no passkey on this device: offer one now.
    var suggestsNewPasskey: Bool { user?.method == .recovery || user?.method == .email }

    func show(_ screen: Screen) {
        guard screen != .account else { return }
        self.screen = screen
    }

    private func showAccount(user: SignedInUser?) {
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
        passwordSignIn.reset()
        passkeySignIn.reset()
        recoverySignIn.reset()
        accountCreation.reset()
        screen = .signIn
    }
}
