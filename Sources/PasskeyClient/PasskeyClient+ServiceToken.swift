public import Foundation
internal import PasskeyWire

/// (v4) A JWT for one of the product's other backends, exchanged for the held session. Printing
/// it (`print`, string interpolation, `dump` of a value that holds it) never shows the token.
public struct PasskeyServiceToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The JWT (JWS compact): send it as `Authorization: Bearer` to the backend of `audience`.
    public let token: String
    public let audience: String
    public let expiresAt: Date

    public var description: String {
        "PasskeyServiceToken(audience: \(audience), expiresAt: \(expiresAt), token: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["audience": audience, "expiresAt": expiresAt], displayStyle: .struct)
    }
}

extension PasskeyClient {
    /// How long before its `exp` a kept token is asked for again.
    public static let serviceTokenRenewalMargin: TimeInterval = 30

    /// `POST /v1/sessions/current/tokens`: a JWT for `audience` (nil: the server's default), for
    /// the held session or `token`. The client keeps it and answers it again until 30 s before
    /// it expires, then asks for a new one; callers at the same moment share one request. A
    /// sign-in, a sign-out or another token starts afresh (kept tokens are per session).
    public func serviceToken(audience: String? = nil, token: String? = nil) async throws(PasskeyClientError)
        -> PasskeyServiceToken
    {
        guard let session = token ?? accessToken else { throw .notSignedIn }
        let key = ServiceTokenCache.Key(session: session, audience: audience)
        let now = Date()
        let task = serviceTokens.task(for: key, now: now, margin: Self.serviceTokenRenewalMargin) {
            Task { [self] () async throws -> PasskeyServiceToken in
                let body = try await send(
                    "POST", "/v1/sessions/current/tokens", body: ServiceTokenRequestBody(audience: audience),
                    authorization: .bearer(session), expecting: ServiceTokenResponseBody.self)
                return PasskeyServiceToken(token: body.token, audience: body.audience, expiresAt: body.expiresAt)
            }
        }
        do {
            let minted = try await task.value
            serviceTokens.keep(minted, for: key, task: task)
            return minted
        } catch {
            serviceTokens.forget(key, task: task)
            throw (error as? PasskeyClientError) ?? .cancelled
        }
    }
}

/// The kept service tokens and the requests in flight, per session and audience.
final class ServiceTokenCache: Sendable {
    struct Key: Hashable, Sendable {
        let session: String
        let audience: String?
    }

    private struct Entry {
        var task: Task<PasskeyServiceToken, any Error>
        var minted: PasskeyServiceToken?
    }

    private let entries = ClientLock<[Key: Entry]>([:])

    /// The request whose answer to use: a kept token's (still more than `margin` from expiry),
    /// the one in flight, or a new one from `start`. At most a few sessions are kept: the
    /// others' tokens are dropped when a new session asks.
    func task(
        for key: Key, now: Date, margin: TimeInterval,
        start: () -> Task<PasskeyServiceToken, any Error>
    ) -> Task<PasskeyServiceToken, any Error> {
        entries.withLock { entries in
            if let entry = entries[key] {
                guard let minted = entry.minted else { return entry.task }  // in flight: share it
                if minted.expiresAt.timeIntervalSince(now) > margin { return entry.task }
            }
            entries = entries.filter { $0.key.session == key.session }
            let task = start()
            entries[key] = Entry(task: task, minted: nil)
            return task
        }
    }

    func keep(_ minted: PasskeyServiceToken, for key: Key, task: Task<PasskeyServiceToken, any Error>) {
        entries.withLock { entries in
            guard let entry = entries[key], entry.task == task else { return }
            entries[key]?.minted = minted
        }
    }

    func forget(_ key: Key, task: Task<PasskeyServiceToken, any Error>) {
        entries.withLock { entries in
            if entries[key]?.task == task { entries[key] = nil }
        }
    }
}
