public import Foundation

/// A session's token as a `PasskeyTokenStore` keeps it: the token and when it stops working.
public struct PasskeyStoredToken: Sendable, Hashable, Codable {
    public let accessToken: String
    /// The session's `expiresAt`; `Date.distantFuture` for a token set by
    /// `PasskeyClient.setAccessToken(_:)` (whose expiry the client is not told).
    public let expiresAt: Date

    public init(accessToken: String, expiresAt: Date) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
    }
}

/// Where a `PasskeyClient` keeps the session's token between launches: `KeychainTokenStore` on
/// Apple platforms, `InMemoryTokenStore` in tests and previews, or an app's own.
///
/// The client calls it synchronously (as the Keychain is called), one call at a time: `load()`
/// once, off the main thread (`PasskeyClient.loadStoredToken()`, or the first call that needs the
/// token), again after it threw; `save(_:)` after every call that returns a session; `clear()` on sign-out,
/// account deletion, a 401 `unauthorized` answer to the held token, and for an expired token
/// found at init. A throwing call never fails the client's call (see `PasskeyClient.init`).
public protocol PasskeyTokenStore: Sendable {
    /// The stored token, nil when there is none.
    func load() throws -> PasskeyStoredToken?
    /// Replaces the stored token.
    func save(_ token: PasskeyStoredToken) throws
    /// Removes the stored token (no error when there is none).
    func clear() throws
}

/// A `PasskeyTokenStore` in memory, for tests and SwiftUI previews: it lasts as long as the value
/// (share one between clients to see what a relaunch sees).
public final class InMemoryTokenStore: PasskeyTokenStore {
    private let token: ClientLock<PasskeyStoredToken?>

    public init(_ token: PasskeyStoredToken? = nil) { self.token = ClientLock(token) }

    /// What is stored now.
    public var storedToken: PasskeyStoredToken? { token.withLock { $0 } }

    public func load() -> PasskeyStoredToken? { token.withLock { $0 } }

    public func save(_ token: PasskeyStoredToken) { self.token.withLock { $0 = token } }

    public func clear() { token.withLock { $0 = nil } }
}

/// A `PasskeyTokenStore` call that threw, as the client's `onStoreFailure` handler receives it.
/// The client's own call has succeeded regardless: the token is held in memory for this launch
/// (after a failed `save`) or forgotten in memory (after a failed `clear`).
public struct PasskeyTokenStoreFailure: Error, Sendable, Hashable {
    public enum Operation: String, Sendable, Hashable {
        case load, save, clear
    }

    public let operation: Operation
    /// The store's error, described.
    public let message: String

    public init(operation: Operation, message: String) {
        self.operation = operation
        self.message = message
    }
}

/// Opt-in: a token store that clears what it finds on the app's first launch. The Keychain
/// outlives an app's deletion, so a reinstalled app would otherwise find the previous install's
/// session; wrap the store in this to start signed out after a reinstall. "First launch" is
/// remembered in `defaults` (deleted with the app), under `key`.
///
///     PasskeyClient(baseURL: server, tokenStore: FirstLaunchClearingTokenStore(KeychainTokenStore()))
public final class FirstLaunchClearingTokenStore: PasskeyTokenStore, @unchecked Sendable {
    private let store: any PasskeyTokenStore
    private let defaults: UserDefaults
    private let key: String
    private let lock = NSLock()

    public init(
        _ store: any PasskeyTokenStore, defaults: UserDefaults = .standard,
        key: String = "PasskeyClient.launchedBefore"
    ) {
        self.store = store
        self.defaults = defaults
        self.key = key
    }

    public func load() throws -> PasskeyStoredToken? {
        try lock.withLock {
            if !defaults.bool(forKey: key) {
                try store.clear()
                defaults.set(true, forKey: key)
                return nil
            }
            return try store.load()
        }
    }

    public func save(_ token: PasskeyStoredToken) throws { try store.save(token) }

    public func clear() throws { try store.clear() }
}
