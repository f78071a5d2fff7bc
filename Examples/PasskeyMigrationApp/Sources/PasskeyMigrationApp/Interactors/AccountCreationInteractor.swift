internal import Foundation
internal import PasskeyClient

/// A new user's account, whose only credential is a passkey: from the app's form, or from the
/// iOS 26 account-creation sheet (the system asks for the email address and the name).
///
/// It reaches the `@MainActor` `PasskeyAuthorization` as `SignInInteractor` does.
actor AccountCreationInteractor {
    private let authorization: PasskeyAuthorization

    init(authorization: PasskeyAuthorization) {
        self.authorization = authorization
    }

    /// The form: email address and name first, then the passkey sheet.
    func createAccount(email: String, displayName: String) async throws(PasskeyClientError) -> SignedInUser {
        let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        return SignedInUser(
            try await authorization.createAccountWithPasskey(
                email: SignInInteractor.normalized(email), displayName: name))
    }

    /// The system sheet: nothing typed in the app.
    @available(iOS 26.0, macOS 26.0, *)
    func createAccountWithSheet() async throws(PasskeyClientError) -> SignedInUser {
        SignedInUser(try await authorization.createAccountWithPasskeySheet())
    }
}
