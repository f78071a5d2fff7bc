internal import Foundation
internal import Observation
internal import PasskeyClient

/// Account management and recovery: the passkeys (rename, add, delete), recovery codes (shown
/// once), removing the password at stage ③ when the account allows it, signing out, deleting the
/// account.
@Observable @MainActor final class AccountPresenter {
    enum State: Equatable {
        case loading
        case loaded(AccountSummary)
        /// The account could not be read (the screen offers "Try again").
        case failed(String)
        case signedOut
        case deleted
    }

    private(set) var state: State = .loading
    /// A fresh set of recovery codes, shown once: `recoveryCodesSaved()` drops them for good.
    private(set) var recoveryCodes: [String]?
    /// The outcome of the last action that did not change the screen (e.g. a refusal).
    private(set) var notice: String?
    /// An action is running (buttons are disabled).
    private(set) var isWorking = false
    @ObservationIgnored var onSignedOut: @MainActor () -> Void = {}

    private let interactor: AccountInteractor

    init(interactor: AccountInteractor) {
        self.interactor = interactor
    }

    var summary: AccountSummary? {
        if case .loaded(let summary) = state { return summary }
        return nil
    }

    /// The user's reports from the product API (nil: none loaded, or no product API).
    private(set) var reports: [String]?
    /// Why the reports could not be loaded.
    private(set) var reportsMessage: String?

    /// Reads the reports with a service token (docs/tokens.md).
    func loadReports() async {
        do {
            reports = try await interactor.productReports()
            reportsMessage = nil
        } catch let error as PasskeyClientError {
            reportsMessage = UserMessage.text(for: error)
        } catch {
            reportsMessage = "The reports could not be loaded. Try again later."
        }
    }

    func load() async {
        await run { interactor throws(PasskeyClientError) in try await interactor.summary() }
    }

    func rename(_ passkey: AccountSummary.PasskeyItem, to name: String) async {
        await run { interactor throws(PasskeyClientError) in
            try await interactor.renamePasskey(credentialID: passkey.credentialID, to: name)
        }
    }

    func addPasskey() async {
        await run { interactor throws(PasskeyClientError) in try await interactor.addPasskey() }
    }

    func delete(_ passkey: AccountSummary.PasskeyItem) async {
        await run { interactor throws(PasskeyClientError) in
            try await interactor.deletePasskey(credentialID: passkey.credentialID)
        }
    }

    func removePassword() async {
        guard summary?.passwordRemoval == .allowed else { return }
        await run { interactor throws(PasskeyClientError) in try await interactor.removePassword() }
    }

    func createRecoveryCodes() async {
        guard !isWorking else { return }
        isWorking = true
        defer { isWorking = false }
        do throws(PasskeyClientError) {
            recoveryCodes = try await interactor.createRecoveryCodes()
            notice = nil
            state = .loaded(try await interactor.summary())
        } catch {
            notice = UserMessage.text(for: error)
        }
    }

    /// The user saved the codes (or dismissed the sheet): the app keeps no copy.
    func recoveryCodesSaved() {
        recoveryCodes = nil
    }

    func signOut() async {
        isWorking = true
        await interactor.signOut()
        isWorking = false
        recoveryCodes = nil
        state = .signedOut
        onSignedOut()
    }

    func deleteAccount() async {
        guard !isWorking else { return }
        isWorking = true
        defer { isWorking = false }
        do throws(PasskeyClientError) {
            try await interactor.deleteAccount()
            recoveryCodes = nil
            state = .deleted
            onSignedOut()
        } catch {
            notice = UserMessage.text(for: error)
        }
    }

    /// One change: the account as the server answers it, or a notice (the list stays as it was).
    /// Only a failed first load replaces the screen with `.failed`.
    private func run(_ call: (AccountInteractor) async throws(PasskeyClientError) -> AccountSummary) async {
        guard !isWorking else { return }
        isWorking = true
        defer { isWorking = false }
        do throws(PasskeyClientError) {
            state = .loaded(try await call(interactor))
            notice = nil
        } catch {
            if UserMessage.isUserCancellation(error) { return }
            if error == .notSignedIn || error.code == .unauthorized {
                // The session ended (expired, signed out elsewhere): back to sign-in.
                await interactor.forgetSession()
                recoveryCodes = nil
                state = .signedOut
                onSignedOut()
            } else if summary == nil {
                state = .failed(UserMessage.text(for: error))
            } else {
                notice = UserMessage.text(for: error)
            }
        }
    }
}
