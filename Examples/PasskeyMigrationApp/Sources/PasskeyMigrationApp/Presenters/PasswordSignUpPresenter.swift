internal import Foundation
internal import Observation
internal import PasskeyClient

/// A new password account (slide 7), the way existing users got theirs: the view's fields are
/// `.username` and `.newPassword`, so iOS offers a strong password and saves it. Signed in at once,
/// with Automatic Passkey Upgrade right after (slides 41–42): the saved password is what lets the
/// system create the passkey without asking.
@Observable @MainActor final class PasswordSignUpPresenter {
    enum State: Equatable {
        case editing
        case signingUp
        case signedIn(SignedInUser, upgrade: PasswordSignInPresenter.Upgrade)
        case failed(String)
    }

    var email = ""
    var displayName = ""
    var password = ""
    private(set) var state: State = .editing
    @ObservationIgnored var onSignedIn: @MainActor (SignedInUser, PasswordSignInPresenter.Upgrade) -> Void = { _, _ in }

    private let interactor: SignInInteractor

    init(interactor: SignInInteractor) {
        self.interactor = interactor
    }

    var canSubmit: Bool {
        !SignInInteractor.normalized(email).isEmpty && !displayName.isEmpty && password.count >= 8
            && state != .signingUp
    }

    func reset() {
        password = ""
        state = .editing
    }

    func signUp() async {
        guard canSubmit else { return }
        state = .signingUp
        let user: SignedInUser
        do throws(PasskeyClientError) {
            user = try await interactor.signUp(email: email, displayName: displayName, password: password)
        } catch {
            state = .failed(UserMessage.text(for: error))
            return
        }
        password = ""
        let upgrade = PasswordSignInPresenter.Upgrade(await interactor.upgradeToPasskey())
        state = .signedIn(user, upgrade: upgrade)
        onSignedIn(user, upgrade)
    }
}
