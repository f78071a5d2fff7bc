import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Introspection's decisions: an active opaque token or JWT and what is said of it; every kind
/// of inactive token inactive, for the price of exactly one session lookup (and one signature
/// check when the token names a published key), so no kind answers faster than another.
@Suite struct IntrospectionUseCaseTests {
    /// A fixture with one live session and a JWT minted for it.
    private struct Minted {
        let f = TokenFixture()
        let token: String
        let session: AuthenticationSession
        let jwt: ServiceToken

        init() async throws {
            (token, session) = f.signedIn(method: .passkey, userVerified: true, password: true, passkey: true)
            jwt = try await f.minting().execute(token: token, audience: TokenFixture.audiences[1])
        }

        /// The minted token's claims with some changed.
        func claims(issuer: String = TokenFixture.issuer, expiresAt: Date? = nil) throws -> AccessTokenClaims {
            let c = try #require(f.format.claims(of: jwt.token))
            return AccessTokenClaims(
                issuer: issuer, audience: c.audience, subject: c.subject, sessionID: c.sessionID, tokenID: c.tokenID,
                issuedAt: c.issuedAt, expiresAt: expiresAt ?? c.expiresAt, authTime: c.authTime,
                authenticationMethods: c.authenticationMethods, method: c.method, stage: c.stage)
        }

        /// Signs `claims` with the current key, as the server would.
        func signed(_ claims: AccessTokenClaims) throws -> String {
            let key = try #require(f.store.tables.signingKeys.first)
            return try f.format.sign(claims, keyID: key.id, privateKey: try #require(f.keys.privateKey(of: key)))
        }
    }

    @Test func anActiveOpaqueTokenIsDescribedFromItsSession() async throws {
        let m = try await Minted()
        let facts = try #require(try await m.f.introspection().execute(token: m.token))
        #expect(facts.subject == m.session.accountID)
        #expect(facts.sessionID == m.session.id)
        #expect(facts.issuedAt == m.session.createdAt)
        #expect(facts.expiresAt == m.session.expiresAt)
        #expect(facts.authenticationMethods == ["pop", "user", "mfa"])
        #expect(facts.method == .passkey)
        #expect(facts.stage == .passwordAndPasskey)
        #expect(facts.jwt == nil)
    }

    @Test func anActiveJWTIsDescribedFromItsClaims() async throws {
        let m = try await Minted()
        let claims = try #require(m.f.format.claims(of: m.jwt.token))
        let facts = try #require(try await m.f.introspection().execute(token: m.jwt.token))
        #expect(facts.subject == claims.subject)
        #expect(facts.sessionID == claims.sessionID)
        #expect(facts.issuedAt == claims.issuedAt)
        #expect(facts.expiresAt == claims.expiresAt)
        #expect(facts.authTime == claims.authTime)
        #expect(facts.stage == .passwordAndPasskey)
        let jwt = try #require(facts.jwt)
        #expect(jwt.issuer == TokenFixture.issuer)
        #expect(jwt.audience == TokenFixture.audiences[1])
        #expect(jwt.tokenID == claims.tokenID)
    }

    @Test func everyInactiveKindCostsOneLookup() async throws {
        let m = try await Minted()
        let keyID = m.jwt.keyID
        let claims = try m.claims()
        let inactive: [(String, String)] = [
            ("unknown opaque", "token-404"),
            ("not a session token", "hello"),
            ("empty", ""),
            ("forged signature", m.f.format.forge(claims, keyID: keyID)),
            ("foreign kid", m.f.format.forge(claims, keyID: SigningKeyID(random: Array(repeating: 7, count: 16)))),
            ("unknown JWS-looking string", "jws.999"),
            ("wrong issuer", try m.signed(try m.claims(issuer: "https://other.example.com"))),
            ("expired", try m.signed(try m.claims(expiresAt: m.f.clock.now))),
        ]
        for (kind, token) in inactive {
            let sessions = CountingTokenSessions(m.f.store)
            let facts = try await m.f.introspection(sessions: sessions).execute(token: token)
            #expect(facts == nil, "\(kind)")
            #expect(sessions.lookups == 1, "\(kind): \(sessions.lookups) lookups")
        }
        // The forged and wrong-issuer tokens name a published key: their signatures were checked.
        #expect(m.f.format.signatureChecks >= 3)
    }

    @Test func anEndedSessionMakesBothItsTokensInactiveAtOnce() async throws {
        let m = try await Minted()
        m.f.end(m.session)
        #expect(try await m.f.introspection().execute(token: m.token) == nil)
        #expect(try await m.f.introspection().execute(token: m.jwt.token) == nil)
    }

    @Test func aDeletedAccountsTokensAreInactive() async throws {
        let m = try await Minted()
        m.f.store.update { $0.accounts[m.session.accountID] = nil }
        #expect(try await m.f.introspection().execute(token: m.token) == nil)
        #expect(try await m.f.introspection().execute(token: m.jwt.token) == nil)
    }

    @Test func aRevokedKeysTokensAreInactiveAtOnceEvenWithAStaleCache() async throws {
        let m = try await Minted()
        #expect(try await m.f.introspection().execute(token: m.jwt.token) != nil)
        // The cache still holds the key (loaded a moment ago): the lookup checks it anyway.
        _ = try await m.f.rotation.revoke(m.jwt.keyID)
        #expect(try await m.f.introspection().execute(token: m.jwt.token) == nil)
        #expect(try await m.f.introspection().execute(token: m.token) != nil, "the session itself lives on")
    }

    @Test func aKeyMadeElsewhereIsFoundWithinASecond() async throws {
        let m = try await Minted()
        let introspection = m.f.introspection()
        #expect(try await introspection.execute(token: m.jwt.token) != nil)  // the cache is loaded
        // Another instance revokes the key and signs with a new one at once.
        let replacement = try #require(try await m.f.rotation.revoke(m.jwt.keyID))
        let claims = try m.claims()
        let privateKey = try #require(
            m.f.sealer.open(replacement.key.sealedPrivateKey, context: replacement.key.id.value))
        let fresh = try m.f.format.sign(claims, keyID: replacement.key.id, privateKey: privateKey)
        m.f.clock.advance(by: SigningKeyCache.unknownKeyReloadInterval)
        #expect(try await introspection.execute(token: fresh) != nil)
    }

    @Test func withTokensOffNoJWTIsActive() async throws {
        let m = try await Minted()
        #expect(try await m.f.introspection(tokensOn: false).execute(token: m.jwt.token) == nil)
        #expect(try await m.f.introspection(tokensOn: false).execute(token: m.token) != nil)
    }

    @Test func aDatabaseAwayIsAnError() async throws {
        let m = try await Minted()
        m.f.store.failNext(.unavailable)
        await #expect(throws: RepositoryError.self) { try await m.f.introspection().execute(token: m.token) }
    }
}
