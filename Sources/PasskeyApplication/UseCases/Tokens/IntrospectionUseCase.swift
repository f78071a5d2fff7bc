internal import Foundation
package import PasskeyDomain

/// `POST /v1/introspect` (RFC 7662): whether a token, opaque or JWT, is active now, and what it
/// stands for. One indexed lookup for an opaque token; one signature check and one lookup for a
/// JWT (the lookup also checks that its key was not revoked). Every inactive token costs the
/// same one lookup (a JWT that fails its checks is looked up as an opaque token, which finds
/// nothing), so the answer's time does not tell the kinds apart.
package struct IntrospectionUseCase: Sendable {
    let sessions: any TokenSessionRepository
    /// Nil: tokens off (no JWT can be active).
    let keys: SigningKeyCache?
    let format: any AccessTokenFormat
    let tokens: any SessionTokenGenerator
    let digester: any SecretDigester
    let policy: TokenPolicy
    let clock: any WallClock

    package init(
        sessions: any TokenSessionRepository, keys: SigningKeyCache?, format: any AccessTokenFormat,
        tokens: any SessionTokenGenerator, digester: any SecretDigester, policy: TokenPolicy, clock: any WallClock
    ) {
        self.tokens = tokens
        self.sessions = sessions
        self.keys = keys
        self.format = format
        self.digester = digester
        self.policy = policy
        self.clock = clock
    }

    /// The facts of an active token; nil for anything else.
    package func execute(token: String) async throws(RepositoryError) -> ActiveTokenFacts? {
        let now = clock.now
        if format.looksSigned(token), let keys, let verified = try await verify(token, keys: keys, now: now) {
            let claims = verified.claims
            guard
                try await sessions.liveSession(
                    claims.sessionID, of: claims.subject, signedWith: verified.keyID, now: now) != nil
            else { return nil }
            return ActiveTokenFacts(
                subject: claims.subject, sessionID: claims.sessionID, issuedAt: claims.issuedAt,
                expiresAt: claims.expiresAt, authTime: claims.authTime,
                authenticationMethods: claims.authenticationMethods, method: claims.method, stage: claims.stage,
                jwt: (claims.issuer, claims.audience, claims.tokenID))
        }
        // An opaque token, or anything else (then this finds nothing: a string that cannot be a
        // session token is looked up by its plain SHA-256, which no session has).
        let digest = tokens.digest(ofPresentedToken: token) ?? digester.sha256(Array(token.utf8))
        guard let facts = try await sessions.liveSession(tokenDigest: digest, now: now) else { return nil }
        return ActiveTokenFacts(
            subject: facts.accountID, sessionID: facts.sessionID, issuedAt: facts.createdAt,
            expiresAt: facts.expiresAt, authTime: facts.createdAt,
            authenticationMethods: AccessTokenClaims.authenticationMethods(
                of: facts.method, userVerified: facts.userVerified),
            method: facts.method, stage: facts.stage, jwt: nil)
    }

    /// The verified token when its form, key, signature, issuer and expiry hold (every token
    /// naming a published key costs its signature check, so the kinds of inactive token take
    /// comparable time).
    private func verify(_ token: String, keys: SigningKeyCache, now: Date) async throws(RepositoryError)
        -> VerifiedAccessToken?
    {
        guard let parsed = format.parse(token) else { return nil }
        let set = try await keys.keySet(wanting: parsed.keyID)
        guard
            let key = set.published(at: now, tokenLifetime: policy.lifetime).first(where: { $0.id == parsed.keyID }),
            format.verifySignature(of: parsed, with: key.publicKey), parsed.claims.issuer == policy.issuer,
            parsed.claims.expiresAt > now
        else { return nil }
        return VerifiedAccessToken(keyID: parsed.keyID, claims: parsed.claims)
    }
}
