internal import Foundation
internal import PasskeyClient

/// Signing in: the password (stage ①, followed by Automatic Passkey Upgrade), a passkey (button
/// or AutoFill on the email field), or a recovery code.
///
/// An actor, as in the talk's architecture: the Presenter awaits it and never touches the client.
/// `PasskeyAuthorization` is `@MainActor` (it drives `ASAuthorizationController`, which is UI):
/// the Interactor holds it (a main-actor class is `Sendable`) and awaits its one-call flows, which
/// hop to the main actor for the system sheet and return `Sendable` values (`PasskeySession`,
/// `PasskeyUpgradeOutcome`) to this actor. No platform object ever crosses into the Interactor.
actor SignInInteractor {
    private let client: PasskeyClient
    private let authorization: PasskeyAuthorization

    init(client: PasskeyClient, authorization: PasskeyAuthorization) {
        self.client = client
        self.authorization = authorization
    }

    /// The password sign-in of an existing user (the client holds the session's token).
    func signIn(email: String, password: String) async throws(PasskeyClientError) -> SignedInUser {
        SignedInUser(try await client.signIn(email: Self.normalized(email), password: password))
    }

    /// Automatic Passkey Upgrade, right after `signIn(email:password:)`: never throws, because a
    /// declined or refused upgrade leaves the password session as it was (slide 40).
    func upgradeToPasskey() async -> PasskeyUpgradeOutcome {
        await authorization.upgradeToPasskey()
    }

    /// The "Sign in with a passkey" button (it cancels a running AutoFill request first).
    func signInWithPasskey() async throws(PasskeyClientError) -> SignedInUser {
        SignedInUser(try await authorization.signInWithPasskey())
    }

    /// The AutoFill request of the email field: returns when the user picks a passkey in the
    /// QuickType bar; throws `.authorization(.cancelled)` when `cancelAutoFill()` ends it.
    func signInWithAutoFill() async throws(PasskeyClientError) -> SignedInUser {
        SignedInUser(try await authorization.signInWithAutoFill())
    }

    /// Ends the AutoFill request (the user started typing a password).
    func cancelAutoFill() async {
        await authorization.cancelAutoFill()
    }

    /// A recovery code for a user who lost every passkey: a short session that may add a new
    /// passkey at once (modal).
    func signIn(email: String, recoveryCode: String) async throws(PasskeyClientError) -> SignedInUser {
        SignedInUser(try await client.signIn(email: Self.normalized(email), recoveryCode: recoveryCode))
    }

    /// The address as typed, without the spaces a keyboard or a paste leaves around it.
    static func normalized(_ email: String) -> String { email.trimmingCharacters(in: .whitespacesAndNewlines) }
}
