internal import Foundation
internal import PasskeyClient

/// Asks the platform for an assertion of a discoverable passkey: the sheet of the "Sign in with a
/// passkey" button (`performRequests()`).
protocol PasskeyAssertionRequester: Sendable {
    func requestAssertion(_ options: PasskeySignInOptions) async throws(PasskeyClientError)
        -> PasskeyAssertionCredential
}

/// `PasskeyAssertionRequester` on AuthenticationServices, through the library's bridge. (The
/// AutoFill offer of the email field is the library's `signInWithAutoFill()`: it keeps itself
/// offered, which an app should not write again.)
struct AuthenticationServicesPasskeyAssertionRequester: PasskeyAssertionRequester {
    let authorization: PasskeyAuthorization

    func requestAssertion(_ options: PasskeySignInOptions) async throws(PasskeyClientError)
        -> PasskeyAssertionCredential
    {
        let result = try await AuthorizationSheet.perform(.assertion(options, presentation: .modal), on: authorization)
        guard case .assertion(let assertion) = result else { throw .authorization(.invalidResponse) }
        return assertion
    }
}
