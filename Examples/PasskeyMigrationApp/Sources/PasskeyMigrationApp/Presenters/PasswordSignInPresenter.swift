internal import Foundation
internal import Observation
internal import PasskeyClient

/// The password sign-in of an existing user (stage ①), with Automatic Passkey Upgrade right after
/// it: the system creates a passkey without asking, or does nothing. Whatever the upgrade's
/// outcome, the user stays signed in (slide 40).
@Observable @MainActor final class PasswordSignInPresenter {
    /// What the upgrade did, for a one-line note on the next screen.
    enum Upgrade: Equatable {
        /// A passkey was created: the next sign-in can use it.
        case upgraded
        /// The system did not create one (the user's choice, no credential manager, …).
        case declined
        /// The server refused it (e.g. the password sign-in was not recent enough).
        case refused

        /// What the screen says of the library's outcome (its reasons are not shown).
        init(_ outcome: PasskeyUpgradeOutcome) {
            switch outcome {
            case .upgraded: self = .upgraded
            case .declined: self = .declined
            case .refused: self = .refused
            }
        }
    }

    enum State: Equatable {
        case editing
        case signingIn
        /// Signed in with the password; the upgrade request is with the system.
        case upgrading(SignedInUser)
        case signedIn(SignedInUser, upgrade: Upgrade)
        case failed(String)
    }

    var email = ""
    var password = ""
    private(set) var state: State = .editing
    /// Told about a finished sign-in (the app shows the account).
    @ObservationIgnored var onSignedIn: @MainActor (SignedInUser, Upgrade) -> Void = { _, _ in }
    /// Told about a failed sign-in (the router brings the passkey offer back).
    @ObservationIgnored var onFailed: @MainActor () -> Void = {}

    private let interactor: SignInInteractor

    init(interactor: SignInInteractor) {
        self.interactor = interactor
    }

    var canSubmit: Bool {
        !SignInInteractor.normalized(email).isEmpty && !password.isEmpty && !isBusy
    }

    var isBusy: Bool {
        switch state {
        case .signingIn, .upgrading: true
        case .editing, .signedIn, .failed: false
        }
    }

    /// After a sign-out: the form again, with the address kept.
    func reset() {
        password = ""
        state = .editing
    }

    func signIn() async {
        guard canSubmit else { return }
        state = .signingIn
        let user: SignedInUser
        do throws(PasskeyClientError) {
            user = try await interactor.signIn(email: email, password: password)
        } catch {
            state = .failed(UserMessage.text(for: error))
            onFailed()
            return
        }
        password = ""
        state = .upgrading(user)
        let upgrade = Upgrade(await interactor.upgradeToPasskey())
        state = .signedIn(user, upgrade: upgrade)
        onSignedIn(user, upgrade)
    }
}
