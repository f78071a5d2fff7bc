internal import Foundation
internal import PasskeyClient

/// Creates a passkey from the server's registration options: the platform's registration request
/// (`ASAuthorizationPlatformPublicKeyCredentialProvider.createCredentialRegistrationRequest`).
protocol PasskeyCredentialCreator: Sendable {
    func createCredential(_ options: PasskeyRegistrationOptions) async throws(PasskeyClientError)
        -> PasskeyRegistrationCredential
    /// A new account's passkey, from the form's options.
    func createCredential(forNewAccount options: PasskeyAccountRegistrationOptions) async throws(PasskeyClientError)
        -> PasskeyRegistrationCredential
}

/// `PasskeyCredentialCreator` on AuthenticationServices, through the library's bridge
/// (`PasskeyAuthorization.perform`): a sheet for `mode: .modal`, no UI for Automatic Passkey
/// Upgrade (`.conditional`, the request style the options carry). A running AutoFill offer is
/// withdrawn first (the platform shows one request at a time).
struct AuthenticationServicesPasskeyCredentialCreator: PasskeyCredentialCreator {
    let authorization: PasskeyAuthorization

    func createCredential(_ options: PasskeyRegistrationOptions) async throws(PasskeyClientError)
        -> PasskeyRegistrationCredential
    {
        try await registration(.registration(options))
    }

    func createCredential(forNewAccount options: PasskeyAccountRegistrationOptions)
        async throws(PasskeyClientError) -> PasskeyRegistrationCredential
    {
        try await registration(.accountRegistration(options))
    }

    private func registration(_ request: PasskeyAuthorizationRequest) async throws(PasskeyClientError)
        -> PasskeyRegistrationCredential
    {
        let result = try await AuthorizationSheet.perform(request, on: authorization)
        guard case .registration(let credential) = result else { throw .authorization(.invalidResponse) }
        return credential
    }
}

/// One platform request on the main actor, AutoFill withdrawn first; its error as the flows'.
enum AuthorizationSheet {
    static func perform(_ request: PasskeyAuthorizationRequest, on authorization: PasskeyAuthorization)
        async throws(PasskeyClientError) -> PasskeyAuthorizationResult
    {
        do {
            return try await authorization.performWithdrawingAutoFill(request)
        } catch {
            throw .authorization(error)
        }
    }
}

extension PasskeyAuthorization {
    /// `perform(_:)`, with a running AutoFill offer withdrawn first (modal requests only).
    func performWithdrawingAutoFill(_ request: PasskeyAuthorizationRequest) async throws(PasskeyAuthorizationError)
        -> PasskeyAuthorizationResult
    {
        if case .assertion(_, .autoFill) = request {} else { cancelAutoFill() }
        return try await perform(request)
    }
}
