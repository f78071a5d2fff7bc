public import Foundation

/// The async bridge over the platform's passkey UI, and the talk's one-call flows on it.
@MainActor
public final class PasskeyAuthorization {
    public let client: PasskeyClient
    let controllers: any PasskeyAuthorizationControllerFactory
    let signals: any PasskeyCredentialSignals

    public init(
        client: PasskeyClient, controllers: any PasskeyAuthorizationControllerFactory,
        signals: any PasskeyCredentialSignals = NoCredentialSignals()
    ) {
        self.client = client
        self.controllers = controllers
        self.signals = signals
    }

    public func perform(_ request: PasskeyAuthorizationRequest) async throws(PasskeyAuthorizationError)
        -> PasskeyAuthorizationResult
    {
        throw .notHandled
    }

    public func signInWithPasskey() async throws(PasskeyClientError) -> PasskeySession {
        throw .authorization(.notHandled)
    }

    public func upgradeToPasskey() async -> PasskeyUpgradeOutcome { .declined(.notHandled) }

    public func addPasskey(name: String? = nil) async throws(PasskeyClientError) {
        throw .authorization(.notHandled)
    }

    public func createAccountWithPasskey(email: String, displayName: String) async throws(PasskeyClientError)
        -> PasskeySession
    {
        throw .authorization(.notHandled)
    }

    @available(iOS 26.0, macOS 26.0, *)
    public func createAccountWithPasskeySheet() async throws(PasskeyClientError) -> PasskeySession {
        throw .authorization(.notHandled)
    }

    public func signInWithAutoFill() async throws(PasskeyClientError) -> PasskeySession {
        throw .authorization(.notHandled)
    }

    public func cancelAutoFill() {}

    public func deletePasskey(credentialID: Data) async throws(PasskeyClientError) {
        throw .authorization(.notHandled)
    }

    public func deleteAccount() async throws(PasskeyClientError) {
        throw .authorization(.notHandled)
    }

    @discardableResult
    public func confirmEmailChange(code: String) async throws(PasskeyClientError) -> PasskeyAccount {
        throw .authorization(.notHandled)
    }
}
