internal import Foundation
internal import Observation
internal import PasskeyClient

/// A user who lost every passkey signs in with one of their recovery codes; the account screen
/// then asks them to add a new passkey at once (the recovery session counts as a recent sign-in).
@Observable @MainActor final class RecoverySignInPresenter {
    enum State: Equatable {
        case editing
        case signingIn
        case signedIn(SignedInUser)
        case failed(String)
    }

    var email = ""
    var code = ""
    private(set) var state: State = .editing
    @ObservationIgnored var onSignedIn: @MainActor (SignedInUser) -> Void = { _ in }

    private let interactor: SignInInteractor

    init(interactor: SignInInteractor) {
        self.interactor = interactor
    }

    var canSubmit: Bool {
        !SignInInteractor.normalized(email).isEmpty && !code.trimmingCharacters(in: .whitespaces).isEmpty
            && state != .signingIn
    }

    /// After a sign-out.
    func reset() {
        code = ""
        state = .editing
    }

    func signIn() async {
        guard canSubmit else { return }
        state = .signingIn
        do throws(PasskeyClientError) {
            let user = try await interactor.signIn(email: email, recoveryCode: code)
            code = ""
            state = .signedIn(user)
            onSignedIn(user)
        } catch {
            state = .failed(
                error.code == .invalidCredentials
                    ? "The email address or the recovery code is wrong." : UserMessage.text(for: error))
        }
    }
}
