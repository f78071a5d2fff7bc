internal import Foundation
internal import Observation
internal import PasskeyClient

/// A new user creates an account with a passkey and no password: the app's form (email address
/// and name, then the passkey sheet), or on iOS 26 the system's account-creation sheet, which asks
/// for both itself.
@Observable @MainActor final class AccountCreationPresenter {
    enum State: Equatable {
        case editing
        case creating
        case created(SignedInUser)
        case failed(String)
    }

    var email = ""
    var displayName = ""
    private(set) var state: State = .editing
    @ObservationIgnored var onCreated: @MainActor (SignedInUser) -> Void = { _ in }

    private let interactor: PasskeyAccountRegistrationInteractor

    init(interactor: PasskeyAccountRegistrationInteractor) {
        self.interactor = interactor
    }

    /// The form's button: an address with an `@`, and a name.
    var canSubmit: Bool {
        let address = SignInInteractor.normalized(email)
        return address.contains("@") && !displayName.trimmingCharacters(in: .whitespaces).isEmpty
            && state != .creating
    }

    /// Whether the screen shows "Create with the system sheet" (iOS 26 / macOS 26).
    var offersSystemSheet: Bool {
        if #available(iOS 26.0, macOS 26.0, *) { return true }
        return false
    }

    /// After a sign-out.
    func reset() {
        state = .editing
    }

    func createWithForm() async {
        guard canSubmit else { return }
        let (email, displayName) = (email, displayName)
        await create { interactor throws(PasskeyClientError) in
            try await interactor.createAccount(email: email, displayName: displayName)
        }
    }

    func createWithSystemSheet() async {
        guard #available(iOS 26.0, macOS 26.0, *) else { return }
        guard state != .creating else { return }
        await create { interactor throws(PasskeyClientError) in try await interactor.createAccountWithSheet() }
    }

    private func create(
        _ call: (PasskeyAccountRegistrationInteractor) async throws(PasskeyClientError) -> SignedInUser
    ) async {
        state = .creating
        do throws(PasskeyClientError) {
            let user = try await call(interactor)
            state = .created(user)
            onCreated(user)
        } catch {
            state = UserMessage.isUserCancellation(error) ? .editing : .failed(UserMessage.text(for: error))
        }
    }
}
