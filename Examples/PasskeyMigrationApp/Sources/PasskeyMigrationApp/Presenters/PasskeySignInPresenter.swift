internal import Foundation
internal import Observation
internal import PasskeyClient

/// Signing in with a passkey: the "Sign in with a passkey" button, and AutoFill on the email field
/// (the system offers the passkeys in the QuickType bar while the field is on screen).
@Observable @MainActor final class PasskeySignInPresenter {
    enum State: Equatable {
        case idle
        /// The AutoFill request runs; the user may pick a passkey above the keyboard.
        case offeringAutoFill
        /// The system sheet of the button is up, or the server checks the passkey.
        case signingIn
        case signedIn(SignedInUser)
        case failed(String)
    }

    private(set) var state: State = .idle
    @ObservationIgnored var onSignedIn: @MainActor (SignedInUser) -> Void = { _ in }

    private let interactor: SignInInteractor

    init(interactor: SignInInteractor) {
        self.interactor = interactor
    }

    /// After a sign-out: ready for the next AutoFill request.
    func reset() {
        state = .idle
    }

    /// The email field appeared: runs the AutoFill request until the user picks a passkey, types a
    /// password (`passwordEditingBegan()`), taps the button, or the view goes (task cancelled).
    /// A cancelled AutoFill request is silent: the screen stays as it is.
    func emailFieldAppeared() async {
        guard state == .idle || isFailed else { return }
        state = .offeringAutoFill
        do throws(PasskeyClientError) {
            finish(try await interactor.signInWithAutoFill())
        } catch {
            // The button's request replaced this one, or the user chose the password: not an error.
            if state == .offeringAutoFill {
                state =
                    UserMessage.isUserCancellation(error) || error == .cancelled
                    ? .idle : .failed(UserMessage.text(for: error))
            }
        }
    }

    /// The user started typing a password: the passkey suggestions go.
    func passwordEditingBegan() async {
        guard state == .offeringAutoFill else { return }
        state = .idle
        await interactor.cancelAutoFill()
    }

    /// The button (the bridge cancels a running AutoFill request first, as the platform requires).
    func signInWithPasskey() async {
        guard state != .signingIn else { return }
        state = .signingIn
        do throws(PasskeyClientError) {
            finish(try await interactor.signInWithPasskey())
        } catch {
            state = UserMessage.isUserCancellation(error) ? .idle : .failed(UserMessage.text(for: error))
        }
    }

    private var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    private func finish(_ user: SignedInUser) {
        state = .signedIn(user)
        onSignedIn(user)
    }
}
