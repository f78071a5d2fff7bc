internal import Foundation
internal import PasskeyClient

/// The iOS 26 account-creation sheet (`ASAuthorizationAccountCreationProvider`): the system asks
/// for the email address and the name itself and returns them with the new passkey.
protocol AccountCreationRequester: Sendable {
    @available(iOS 26.0, macOS 26.0, *)
    func requestAccountCreation(_ options: PasskeyAccountRegistrationOptions) async throws(PasskeyClientError)
        -> PasskeyAccountCreation
}

/// `AccountCreationRequester` on AuthenticationServices, through the library's bridge.
struct AuthenticationServicesAccountCreationRequester: AccountCreationRequester {
    let authorization: PasskeyAuthorization

    @available(iOS 26.0, macOS 26.0, *)
    func requestAccountCreation(_ options: PasskeyAccountRegistrationOptions) async throws(PasskeyClientError)
        -> PasskeyAccountCreation
    {
        let result = try await AuthorizationSheet.perform(.accountCreationSheet(options), on: authorization)
        guard case .accountCreation(let creation) = result else { throw .authorization(.invalidResponse) }
        return creation
    }
}
