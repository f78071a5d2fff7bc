internal import Foundation
internal import PasskeyClient

/// What a sign-in leaves with the app (slide 76's `credentialStore.save(AuthorizationCredential)`):
/// who signed in, how, and until when. Not the token: `PasskeyClient` keeps that in the Keychain
/// (`KeychainTokenStore`) itself, so no screen, log or store of the app ever holds it.
struct AuthorizationCredential: Sendable, Hashable, Codable {
    let accountID: String
    let displayName: String
    let method: String
    let expiresAt: Date

    init(_ session: PasskeySession) {
        accountID = session.accountID
        displayName = session.displayName
        method = session.method
        expiresAt = session.expiresAt
    }
}

/// Where the app keeps the last sign-in's `AuthorizationCredential` ("Welcome back, Taro" at the
/// next launch, before the server is asked).
protocol CredentialStore: Sendable {
    func save(_ credential: AuthorizationCredential) throws
    func load() -> AuthorizationCredential?
    func clear()
}

/// The app's `CredentialStore`: `UserDefaults` (it holds no secret), deleted with the app.
final class UserDefaultsCredentialStore: CredentialStore, @unchecked Sendable {
    private let defaults: UserDefaults
    private let key: String

    init(defaults: UserDefaults = .standard, key: String = "PasskeyMigrationApp.credential") {
        self.defaults = defaults
        self.key = key
    }

    func save(_ credential: AuthorizationCredential) throws {
        defaults.set(try JSONEncoder().encode(credential), forKey: key)
    }

    func load() -> AuthorizationCredential? {
        defaults.data(forKey: key).flatMap { try? JSONDecoder().decode(AuthorizationCredential.self, from: $0) }
    }

    func clear() { defaults.removeObject(forKey: key) }
}
