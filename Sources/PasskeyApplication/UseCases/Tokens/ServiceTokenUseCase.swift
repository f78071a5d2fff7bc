package import Foundation
package import PasskeyDomain

/// Why no token was made.
package enum ServiceTokenError: Error, Hashable, Sendable {
    /// `audience` is not one of `TOKEN_AUDIENCES`.
    case invalidRequest(field: String)
    /// The session ended (or the account is gone) since the request was authorised.
    case unauthorized
    /// Tokens are off (no `DATA_ENCRYPTION_KEY`), or no key signs yet.
    case tokensUnavailable
    case unavailable
    case internalFailure(cause: FailureCause)
}

extension ServiceTokenError: RepositoryBackedError {
    package static var accountGone: Self { .unauthorized }
}

/// A minted token: the JWT, its audience and expiry.
package struct ServiceToken: Hashable, Sendable {
    package let token: String
    package let audience: String
    package let expiresAt: Date
    /// The key that signed it (for the log; the token itself is never logged).
    package let keyID: SigningKeyID
}

/// `POST /v1/sessions/current/tokens`: exchanges the caller's session for a short-lived JWT
/// that the product's other backends verify with the published keys (spec v4). The claims are
/// read in one statement with the session (its way in and the account's stage now); `exp` is
/// never later than the session's own end.
package struct ServiceTokenUseCase: Sendable {
    let sessions: any TokenSessionRepository
    let tokens: any SessionTokenGenerator
    /// Nil: tokens off.
    let keys: SigningKeyCache?
    let format: any AccessTokenFormat
    let policy: TokenPolicy
    let clock: any WallClock
    let random: any RandomGenerator
    /// Makes the first key when none signs yet (a server minting before its periodic check ran).
    let rotation: SigningKeyRotationUseCase?

    package init(
        sessions: any TokenSessionRepository, tokens: any SessionTokenGenerator, keys: SigningKeyCache?,
        format: any AccessTokenFormat, policy: TokenPolicy, clock: any WallClock, random: any RandomGenerator,
        rotation: SigningKeyRotationUseCase? = nil
    ) {
        self.tokens = tokens
        self.rotation = rotation
        self.sessions = sessions
        self.keys = keys
        self.format = format
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    /// Tokens off: 503 `tokens-unavailable`, answered before the body is read.
    package func checkEnabled() throws(ServiceTokenError) {
        guard keys != nil else { throw .tokensUnavailable }
    }

    /// `token`: the caller's bearer token. It is looked up here, once, with what the claims need
    /// (the session, its way in, the account's stage): the route does not authenticate it first,
    /// so a mint costs one statement (the hot path of every backend call that needs a token).
    package func execute(token: String?, audience requested: String?) async throws(ServiceTokenError)
        -> ServiceToken
    {
        guard let token, let digest = tokens.digest(ofPresentedToken: token) else { throw .unauthorized }
        guard let keys else { throw .tokensUnavailable }
        let now = clock.now
        let (facts, set) = try await ServiceTokenError.catching {
            () async throws(RepositoryError) -> (LiveSessionFacts?, SigningKeySet) in
            (try await sessions.liveSession(tokenDigest: digest, now: now), try await keys.keySet())
        }
        guard let facts else { throw .unauthorized }
        let audience = requested ?? policy.audiences[0]
        guard policy.audiences.contains(audience) else { throw .invalidRequest(field: "audience") }
        guard let key = try await currentKey(in: set, keys: keys, now: now) else { throw .tokensUnavailable }
        guard let privateKey = keys.privateKey(of: key) else {
            throw .internalFailure(cause: FailureCause(BrokenInvariant("signing key \(key.id) does not open")))
        }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let latest = issuedAt.addingTimeInterval(policy.lifetime)
        let sessionEnd = Date(timeIntervalSince1970: facts.expiresAt.timeIntervalSince1970.rounded(.down))
        let claims = AccessTokenClaims(
            issuer: policy.issuer, audience: audience, subject: facts.accountID, sessionID: facts.sessionID,
            tokenID: random.uuid(), issuedAt: issuedAt, expiresAt: min(latest, sessionEnd),
            authTime: Date(timeIntervalSince1970: facts.createdAt.timeIntervalSince1970.rounded(.down)),
            authenticationMethods: AccessTokenClaims.authenticationMethods(
                of: facts.method, userVerified: facts.userVerified),
            method: facts.method, stage: facts.stage)
        let jwt: String
        do {
            jwt = try format.sign(claims, keyID: key.id, privateKey: privateKey)
        } catch {
            throw .internalFailure(cause: FailureCause(error))
        }
        return ServiceToken(token: jwt, audience: audience, expiresAt: claims.expiresAt, keyID: key.id)
    }

    /// The key that signs now; when none does, the one the rotation makes at once.
    private func currentKey(in set: SigningKeySet, keys: SigningKeyCache, now: Date) async throws(ServiceTokenError)
        -> SigningKey?
    {
        if let key = set.current(at: now) { return key }
        guard let rotation else { return nil }
        do {
            try await rotation.ensure()
        } catch {
            switch error {
            case .unavailable: throw .unavailable
            case .unknownKey: return nil
            case .internalFailure(let cause): throw .internalFailure(cause: cause)
            }
        }
        keys.invalidate()
        // The key made just now signs from the rotation's clock reading, a moment after `now`.
        let later = clock.now
        return try await ServiceTokenError.catching { () async throws(RepositoryError) in
            try await keys.keySet().current(at: max(now, later))
        }
    }
}
