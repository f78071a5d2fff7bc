internal import Foundation
internal import Observation
internal import PasskeyClient

/// Signing in with a passkey: the "Sign in with a passkey" button, and AutoFill on the email field
/// (the system offers the passkeys in the QuickType bar while the field is on screen).
///
/// **AutoFill never disappears**, as in Apple's Shiny sample: the offer is started when the email
/// field appears, and started again after a sheet the user cancelled, after a failed password, and
/// when the email field regains focus (where a stale challenge is also replaced). Focusing the
/// password field does not withdraw it: the user may still pick a passkey.
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
    /// The AutoFill offer this presenter started itself (`restartAutoFill()`): withdrawn by
    /// `withdrawAutoFill()` when the Router shows another screen. (An offer the view started in
    /// its `.task` is withdrawn by SwiftUI cancelling that task.)
    @ObservationIgnored private var autoFill: Task<Void, Never>?
    /// Whether `autoFill` is the launch's request (`offerPasskeyAtLaunch()`), which shows as
    /// `.signingIn` while its sheet may be up.
    @ObservationIgnored private var offeringAtLaunch = false

    private let interactor: PasskeyAuthenticationInteractor

    init(interactor: PasskeyAuthenticationInteractor) {
        self.interactor = interactor
    }

    /// After a sign-out: ready for the next AutoFill request.
    func reset() {
        state = .idle
    }

    /// The email field appeared: runs the AutoFill request until the user picks a passkey, taps
    /// the button, or the view goes (task cancelled). A withdrawn request is silent.
    func emailFieldAppeared() async {
        guard state == .idle || isFailed else { return }
        state = .offeringAutoFill
        do throws(PasskeyClientError) {
            finish(try await interactor.signInWithAutoFill())
        } catch {
            // The button's request replaced this one, or the screen went: not an error.
            if state == .offeringAutoFill {
                state =
                    UserMessage.isUserCancellation(error) || error == .cancelled
                    ? .idle : .failed(UserMessage.text(for: error))
            }
        }
    }

    /// Starts the offer again if it is not running (after a cancelled sheet, a failed password,
    /// the email field focused again), in a task of the presenter's own.
    func restartAutoFill() {
        guard state == .idle || isFailed else { return }
        autoFill?.cancel()
        autoFill = Task { await self.emailFieldAppeared() }
    }

    /// The email field gained focus: a stale challenge is replaced; an offer that was withdrawn
    /// comes back.
    func emailFieldFocused() async {
        if state == .offeringAutoFill, await interactor.isOfferingAutoFill() {
            _ = await interactor.refreshAutoFill()
        } else {
            restartAutoFill()
        }
    }

    /// The sign-in screen went (another screen, or signed in another way): the offer this
    /// presenter started is withdrawn, so the QuickType bar of the next screen offers no passkey
    /// for a field that is gone. Cancelling its task cancels the request (the bridge cancels the
    /// controller when its caller's task is cancelled).
    func withdrawAutoFill() {
        autoFill?.cancel()
        autoFill = nil
        if state == .offeringAutoFill || (state == .signingIn && offeringAtLaunch) { state = .idle }
        offeringAtLaunch = false
    }

    /// At launch, signed out: a device that holds a passkey for the service offers it in the
    /// sheet at once; one that holds none shows nothing (`preferImmediatelyAvailableCredentials`)
    /// and the email field's AutoFill offer follows, as after a closed sheet. The view's AutoFill
    /// request usually starts first (the screen shows before the stored token is loaded): the
    /// bridge withdraws it for this request, and it is offered again afterwards.
    func offerPasskeyAtLaunch() {
        guard state == .idle || state == .offeringAutoFill else { return }
        state = .signingIn
        offeringAtLaunch = true
        autoFill?.cancel()
        autoFill = Task {
            let user: SignedInUser?
            do throws(PasskeyClientError) {
                user = try await interactor.signInWithImmediatelyAvailablePasskey()
            } catch {
                // Withdrawn with its screen: `withdrawAutoFill()` has set the state already.
                guard !Task.isCancelled else { return }
                offeringAtLaunch = false
                state =
                    UserMessage.isUserCancellation(error) || error == .cancelled
                    ? .idle : .failed(UserMessage.text(for: error))
                if state == .idle { autoFill = Task { await self.emailFieldAppeared() } }
                return
            }
            // A sign-in that went through stands, even if the screen was left meanwhile.
            if let user {
                offeringAtLaunch = false
                finish(user)
                return
            }
            guard !Task.isCancelled else { return }
            offeringAtLaunch = false
            state = .idle
            autoFill = Task { await self.emailFieldAppeared() }
        }
    }

    /// A password sign-in failed: the passkeys are offered again.
    func passwordSignInFailed() {
        restartAutoFill()
    }

    /// The button (the bridge withdraws a running AutoFill request first, as the platform requires).
    func signInWithPasskey() async {
        guard state != .signingIn else { return }
        state = .signingIn
        do throws(PasskeyClientError) {
            finish(try await interactor.signInWithPasskey())
        } catch {
            state = UserMessage.isUserCancellation(error) ? .idle : .failed(UserMessage.text(for: error))
            // The user closed the sheet: the QuickType offer comes back at once. After a failure
            // the message stays up; the offer comes back when the email field is focused.
            if state == .idle { restartAutoFill() }
        }
    }

    /// The button, as in Apple's sample: one sheet with the passkeys and the saved passwords. A
    /// saved password signs in and is upgraded to a passkey right away.
    func signInWithPasskeyOrPassword() async {
        guard state != .signingIn else { return }
        state = .signingIn
        do throws(PasskeyClientError) {
            finish(try await interactor.signInWithPasskeyOrSavedPassword().user)
        } catch {
            state = UserMessage.isUserCancellation(error) ? .idle : .failed(UserMessage.text(for: error))
            if state == .idle { restartAutoFill() }
        }
    }

    /// Waits for the offer started by `restartAutoFill()` (tests; the views do not wait).
    func autoFillTask() -> Task<Void, Never>? { autoFill }

    private var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    private func finish(_ user: SignedInUser) {
        state = .signedIn(user)
        onSignedIn(user)
    }
}
