import Foundation
import PasskeyClient
import PasskeyClientTestSupport
import PasskeyDatabaseTestSupport
import Testing

@testable import PasskeyMigrationApp

/// The app as it starts on a device: one client, one bridge over the given controllers, and the
/// root Presenter that composes every Presenter and Interactor.
@MainActor struct TestApp {
    static let password = "correct horse battery"

    /// Waits until `condition` holds, checking every 10 ms for at most 10 s (the caller then
    /// expects it: a condition that never came fails there, not here).
    static func until(_ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<1000 where !condition() {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    let client: PasskeyClient
    let app: Router
    /// What the app told the device's credential manager.
    let signals = RecordingSignals()

    /// - Parameter tokenStore: where the session's token outlives a launch (the app's Keychain);
    ///   a token stored by an earlier launch opens the app on the account.
    /// - Parameter credentials: the app's record of who signed in (its `UserDefaults`), shared by
    ///   the launches of one device.
    init(
        server: URL, controllers: any PasskeyAuthorizationControllerFactory,
        tokenStore: (any PasskeyTokenStore)? = nil, credentials: any CredentialStore = TestCredentialStore(),
        productAPI: (any ProductAPI)? = nil
    ) {
        client = tokenStore.map { PasskeyClient(baseURL: server, tokenStore: $0) } ?? PasskeyClient(baseURL: server)
        app = Router(
            client: client,
            authorization: PasskeyAuthorization(client: client, controllers: controllers, signals: signals),
            credentialStore: credentials, productAPI: productAPI)
    }

    /// Runs `flow` on the main actor (where the app's Presenters live) against a fresh
    /// `passkey-server` on a fresh database (its `environment` added to the served server's).
    nonisolated static func onServer(
        environment: [String: String] = [:], _ flow: @escaping @MainActor @Sendable (URL) async throws -> Void
    ) async throws {
        try await ServedServer.with(environment: environment) { server in try await flow(server) }
    }

    /// A phone with no passkey yet: `PasskeyClientTestSupport`'s software authenticator behind the
    /// bridge's controller seam, signing for the served server's origin.
    static func newDevice() -> SoftwareAuthenticatorControllers {
        SoftwareAuthenticatorControllers(origin: ServedServer.origin)
    }

    /// A fresh address, so tests never share an account.
    static func newEmail(_ name: String = "user") -> String { "\(name)-\(UUID().uuidString.prefix(8))@example.com" }

    /// An existing password user of stage ① (made over the API, as the web sign-up would).
    func passwordUser(displayName: String = "Taro") async throws -> String {
        let email = Self.newEmail()
        _ = try await client.createPasswordAccount(email: email, displayName: displayName, password: Self.password)
        return email
    }

    /// Signs in on the password screen and returns the account screen's Presenter, loaded.
    func signInWithPassword(_ email: String) async throws -> AccountPresenter {
        app.passwordSignIn.email = email
        app.passwordSignIn.password = Self.password
        await app.passwordSignIn.signIn()
        return try await loadedAccount()
    }

    /// The account screen that is up, after its `.task` has loaded it.
    func loadedAccount() async throws -> AccountPresenter {
        #expect(app.screen == .account)
        let account = try #require(app.account)
        await account.load()
        return account
    }

    /// The form's account creation; returns the loaded account screen.
    func createAccountWithForm(email: String, displayName: String) async throws -> AccountPresenter {
        app.show(.createAccount)
        app.accountCreation.email = email
        app.accountCreation.displayName = displayName
        await app.accountCreation.createWithForm()
        return try await loadedAccount()
    }
}

/// The app's credential store in memory (the app's is `UserDefaults`).
final class TestCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var credential: AuthorizationCredential?

    func save(_ credential: AuthorizationCredential) { lock.withLock { self.credential = credential } }
    func load() -> AuthorizationCredential? { lock.withLock { credential } }
    func clear() { lock.withLock { credential = nil } }
}
