public import Foundation
internal import PasskeyWire

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An async/await client for every endpoint of the passkey server's contract, for iOS apps (see
/// `Authorization/PasskeyAuthorization.swift`, the bridge to the platform's passkey UI) and any Swift program.
///
/// Inputs and outputs are what AuthenticationServices works with (`Data` for challenges, user IDs,
/// credential IDs, the user handle and the raw authenticator outputs): the app never touches
/// base64. A session from any sign-in is held by the client (and saved in its
/// `PasskeyTokenStore`, if it has one) and used for the authenticated calls, unless a call is
/// given its own `token`. Errors are `PasskeyClientError`: the server's problem+json as typed
/// values, transport failures, or an answer that is not the contract's. `Sendable`; cancelling
/// the calling task cancels the request (URLSession's async API).
public final class PasskeyClient: Sendable {
    /// The server's origin, e.g. `https://example.com` (paths like `/v1/sessions` are appended).
    public let baseURL: URL
    let session: URLSession
    /// The held token; the store's calls are made under the same lock, so memory and store
    /// change together. `nil` until the store's token was loaded (`loadStoredToken()`).
    private let held: ClientLock<PasskeyStoredToken??>
    private let tokenStore: (any PasskeyTokenStore)?
    private let onStoreFailure: (@Sendable (PasskeyTokenStoreFailure) -> Void)?
    /// What a loaded token's expiry is compared with.
    private let now: @Sendable () -> Date
    /// The subscribers of `signedInStates()`.
    private let stateListeners = ClientLock<[UUID: AsyncStream<Bool>.Continuation]>([:])
    /// (v4) The JWTs of `serviceToken(audience:)`, kept until shortly before they expire.
    let serviceTokens = ServiceTokenCache()

    /// A client that holds its token in memory only (`accessToken`, e.g. restored by the app).
    public init(baseURL: URL, session: URLSession = .shared, accessToken: String? = nil) {
        self.baseURL = baseURL
        self.session = session
        self.held = ClientLock(
            .some(accessToken.map { PasskeyStoredToken(accessToken: $0, expiresAt: .distantFuture) }))
        self.tokenStore = nil
        self.onStoreFailure = nil
        self.now = { Date() }
    }

    /// A client that keeps its token in `tokenStore` (`KeychainTokenStore` in an app): every
    /// call that returns a session saves its token, and sign-out, account deletion and a 401
    /// `unauthorized` answer to the held token clear it.
    ///
    /// **Nothing is read here**: the stored token is loaded by `loadStoredToken()` (call it at
    /// launch, from a task: it reads the store off the main thread), else by the first call that
    /// needs it. An expired stored token is cleared, not used. A load that throws (a locked
    /// device) is told to `onStoreFailure` and **tried again** by the next call, instead of
    /// signing the user out for the whole process.
    ///
    /// A store that throws never costs the sign-in: the call still succeeds and the token is
    /// held in memory for this client's life (after a failed `clear`, it is forgotten in memory
    /// all the same); `onStoreFailure` is told, e.g. to log it. It is called synchronously, on
    /// the calling task, outside the client's lock. `now` is what the stored token's expiry is
    /// compared with (a test's clock).
    public init(
        baseURL: URL, session: URLSession = .shared, tokenStore: any PasskeyTokenStore,
        onStoreFailure: (@Sendable (PasskeyTokenStoreFailure) -> Void)? = nil, now: Date? = nil
    ) {
        self.baseURL = baseURL
        self.session = session
        self.tokenStore = tokenStore
        self.onStoreFailure = onStoreFailure
        self.now = { now ?? Date() }
        self.held = ClientLock(nil)
    }

    /// Loads the stored token if it is not loaded yet, reading the store on a background thread
    /// (the Keychain must not block the main thread at launch). Returns whether a token is held.
    /// A failed load leaves it unloaded: the next call tries again.
    @discardableResult
    public func loadStoredToken() async -> Bool {
        if let loaded = held.withLock({ $0 }) { return loaded != nil }
        return await Task.detached(priority: .userInitiated) { [self] in self.loadedToken() != nil }.value
    }

    /// The held token, loading the stored one first if that has not happened (synchronously, on
    /// the calling thread: the async calls load it off the main thread before they get here).
    private func loadedToken() -> PasskeyStoredToken? {
        var failures: [PasskeyTokenStoreFailure] = []
        var loadedNow = false
        let token = held.withLock { held -> PasskeyStoredToken? in
            if let loaded = held { return loaded }
            guard let tokenStore else { return nil }
            var loaded: PasskeyStoredToken?
            do {
                loaded = try tokenStore.load()
            } catch {
                failures.append(PasskeyTokenStoreFailure(operation: .load, message: String(describing: error)))
                return nil  // not loaded: tried again by the next call
            }
            if let token = loaded, token.expiresAt <= now() {
                loaded = nil
                do {
                    try tokenStore.clear()
                } catch {
                    failures.append(PasskeyTokenStoreFailure(operation: .clear, message: String(describing: error)))
                }
            }
            held = .some(loaded)
            loadedNow = true
            return loaded
        }
        for failure in failures { onStoreFailure?(failure) }
        if loadedNow { publish(token != nil) }
        return token
    }

    /// The access token the authenticated calls use (set by every successful sign-in).
    public var accessToken: String? { loadedToken()?.accessToken }

    /// The held token with its expiry (`Date.distantFuture` when set without one).
    public var heldToken: PasskeyStoredToken? { loadedToken() }

    /// Whether a token is held, now and after every change: a sign-in (true), a sign-out, an
    /// account deletion, or a 401 to the held token (false). Each call is a new stream that
    /// starts with the current state; the app's router listens to one, so a session that ended
    /// anywhere reaches it instead of every screen. It ends when the listener's task is
    /// cancelled. Before the stored token is loaded it starts with the load's answer instead.
    public func signedInStates() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        stateListeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.stateListeners.withLock { $0.removeValue(forKey: id) }
        }
        if let loaded = held.withLock({ $0 }) { continuation.yield(loaded != nil) }
        return stream
    }

    /// Tells the listeners of `signedInStates()`.
    private func publish(_ signedIn: Bool) {
        for listener in stateListeners.withLock({ Array($0.values) }) { listener.yield(signedIn) }
    }

    /// Replaces the held access token (e.g. one the app restored itself), or forgets it; written
    /// through to the token store, with `Date.distantFuture` as its expiry (the client is not
    /// told the real one; a 401 clears it).
    public func setAccessToken(_ accessToken: String?) {
        hold(accessToken.map { PasskeyStoredToken(accessToken: $0, expiresAt: .distantFuture) })
    }

    /// Holds `token` (nil: forgets it) and writes it through to the store.
    func hold(_ token: PasskeyStoredToken?) {
        let failure = held.withLock { held -> PasskeyTokenStoreFailure? in
            held = .some(token)
            return write(token)
        }
        if let failure { onStoreFailure?(failure) }
        publish(token != nil)
    }

    /// Forgets the held token if it is still `token` (a sign-in meanwhile wins).
    func forget(ifHeld token: String) {
        let forgotten = held.withLock { held -> (Bool, PasskeyTokenStoreFailure?) in
            guard held??.accessToken == token else { return (false, nil) }
            held = .some(nil)
            return (true, write(nil))
        }
        if let failure = forgotten.1 { onStoreFailure?(failure) }
        if forgotten.0 { publish(false) }
    }

    /// Saves or clears; the failure to report, if any.
    private func write(_ token: PasskeyStoredToken?) -> PasskeyTokenStoreFailure? {
        guard let tokenStore else { return nil }
        do {
            if let token { try tokenStore.save(token) } else { try tokenStore.clear() }
            return nil
        } catch {
            return PasskeyTokenStoreFailure(
                operation: token == nil ? .clear : .save, message: String(describing: error))
        }
    }

    // MARK: - Plumbing

    enum Authorization {
        case none
        /// The token given to the call, else the held one.
        case bearer(String?)
    }

    /// Sends one request and decodes the answer; a non-2xx answer is a `PasskeyClientError`.
    func send<Response: Decodable>(
        _ method: String, _ path: String, body: (any Encodable & Sendable)? = nil,
        authorization: Authorization = .none, expecting: Response.Type
    ) async throws(PasskeyClientError) -> Response {
        let (data, status) = try await exchange(method, path, body: body, authorization: authorization)
        do {
            return try WireJSON.decode(Response.self, from: data)
        } catch {
            throw .unexpectedResponse(
                "the answer is not the contract's \(Response.self)", status: status,
                cause: DecodingFailure.describe(error))
        }
    }

    /// Sends one request and builds the client's value from the wire body of the answer.
    func send<Value: WireDecodable>(
        _ method: String, _ path: String, body: (any Encodable & Sendable)? = nil,
        authorization: Authorization = .none, expecting: Value.Type
    ) async throws(PasskeyClientError) -> Value {
        let (data, status) = try await exchange(method, path, body: body, authorization: authorization)
        let wire: Value.Wire
        do {
            wire = try WireJSON.decode(Value.Wire.self, from: data)
        } catch {
            throw .unexpectedResponse(
                "the answer is not the contract's \(Value.Wire.self)", status: status,
                cause: DecodingFailure.describe(error))
        }
        do {
            return try Value(wire: wire)
        } catch {
            throw .unexpectedResponse(
                "the answer is not the contract's \(Value.Wire.self)", status: status, cause: error.description)
        }
    }

    /// Sends one request whose success has no body (204).
    func send(
        _ method: String, _ path: String, body: (any Encodable & Sendable)? = nil,
        authorization: Authorization = .none
    ) async throws(PasskeyClientError) {
        _ = try await exchange(method, path, body: body, authorization: authorization)
    }

    /// The body and status of a 2xx answer.
    private func exchange(
        _ method: String, _ path: String, body: (any Encodable & Sendable)?, authorization: Authorization
    ) async throws(PasskeyClientError) -> (body: Data, status: Int) {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw .unexpectedResponse("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            do {
                request.httpBody = try WireJSON.encode(body)
            } catch {
                throw .unexpectedResponse("the request body could not be encoded", cause: "\(error)")
            }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        /// The held token the request carries (not one given to the call).
        var heldBearer: String?
        if case .bearer(let given) = authorization {
            if given == nil, tokenStore != nil { await loadStoredToken() }
            heldBearer = given == nil ? accessToken : nil
            guard let bearer = given ?? heldBearer else { throw .notSignedIn }
            request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        }
        let data: Data
        let response: URLResponse
        do {
            try Task.checkCancellation()
            (data, response) = try await session.data(for: request)
        } catch is CancellationError {
            throw .cancelled
        } catch let error as URLError where error.code == .cancelled {
            throw .cancelled
        } catch {
            throw PasskeyClientError(transport: error)
        }
        guard let http = response as? HTTPURLResponse else { throw .unexpectedResponse("not an HTTP answer") }
        guard (200..<300).contains(http.statusCode) else {
            let error = PasskeyClientError(
                status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
            // The held token's session is over (expired, signed out elsewhere): forget it.
            if let heldBearer, error.code == .unauthorized { forget(ifHeld: heldBearer) }
            throw error
        }
        return (data, http.statusCode)
    }
}
