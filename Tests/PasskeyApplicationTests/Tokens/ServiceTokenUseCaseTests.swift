import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Minting (`POST /v1/sessions/current/tokens`): the claims from the session and the account's
/// stage now, the audience rules, `exp` capped by the session, the key that signs, and the
/// refusals.
@Suite struct ServiceTokenUseCaseTests {
    @Test func aPasswordSessionBecomesClaimsSignedByTheFirstKey() async throws {
        let f = TokenFixture()
        let (token, session) = f.signedIn()
        f.clock.advance(by: 0.75)
        let minted = try await f.minting().execute(token: token, audience: nil)
        // No key existed: the first one was made and signs at once.
        let key = try #require(f.store.tables.signingKeys.first)
        #expect(f.store.tables.signingKeys.count == 1)
        #expect(key.signsFrom == f.clock.now)
        #expect(minted.keyID == key.id)
        let claims = try #require(f.format.claims(of: minted.token))
        let issuedAt = TokenFixture.seconds(f.clock.now)
        #expect(claims.issuer == TokenFixture.issuer)
        #expect(claims.audience == TokenFixture.audiences[0])
        #expect(minted.audience == TokenFixture.audiences[0])
        #expect(claims.subject == session.accountID)
        #expect(claims.sessionID == session.id)
        #expect(claims.issuedAt == issuedAt)
        #expect(claims.expiresAt == issuedAt.addingTimeInterval(300))
        #expect(minted.expiresAt == claims.expiresAt)
        #expect(claims.authTime == TokenFixture.seconds(session.createdAt))
        #expect(claims.authenticationMethods == ["pwd"])
        #expect(claims.method == .password)
        #expect(claims.stage == .passwordOnly)
    }

    @Test func aVerifiedPasskeySessionSaysMFAAndTheStageIsReadNow() async throws {
        let f = TokenFixture()
        let (token, session) = f.signedIn(method: .passkey, userVerified: true, password: false, passkey: true)
        let first = try await f.minting().execute(token: token, audience: nil)
        #expect(f.format.claims(of: first.token)?.authenticationMethods == ["pop", "user", "mfa"])
        #expect(f.format.claims(of: first.token)?.stage == .passkeyOnly)
        // A password added since: the next token says so.
        f.store.update { tables in
            tables.passwords[session.accountID] = PasswordCredential(
                accountID: session.accountID, passwordHash: "hash", createdAt: f.clock.now, updatedAt: f.clock.now)
        }
        let second = try await f.minting().execute(token: token, audience: nil)
        #expect(f.format.claims(of: second.token)?.stage == .passwordAndPasskey)
        #expect(f.format.claims(of: first.token)?.tokenID != f.format.claims(of: second.token)?.tokenID)
    }

    @Test func eachWayInHasItsMethods() async throws {
        let f = TokenFixture()
        let cases: [(AuthenticationMethod, Bool, [String])] = [
            (.passkey, false, ["pop", "user"]), (.recovery, false, ["otp"]), (.email, false, ["otp"]),
        ]
        for (method, verified, amr) in cases {
            let (token, _) = f.signedIn(method: method, userVerified: verified, password: false)
            let minted = try await f.minting().execute(token: token, audience: nil)
            #expect(f.format.claims(of: minted.token)?.authenticationMethods == amr, "\(method)")
            #expect(f.format.claims(of: minted.token)?.method == method)
            #expect(f.format.claims(of: minted.token)?.stage == MigrationStage.none)
        }
    }

    @Test func onlyAConfiguredAudienceIsGranted() async throws {
        let f = TokenFixture()
        let (token, _) = f.signedIn()
        let other = try await f.minting().execute(token: token, audience: TokenFixture.audiences[1])
        #expect(f.format.claims(of: other.token)?.audience == TokenFixture.audiences[1])
        for audience in ["https://evil.example.com", "", TokenFixture.audiences[0].uppercased()] {
            await #expect(throws: ServiceTokenError.invalidRequest(field: "audience")) {
                try await f.minting().execute(token: token, audience: audience)
            }
        }
    }

    @Test func theTokenNeverOutlivesItsSession() async throws {
        let f = TokenFixture()
        let (token, session) = f.signedIn(lifetime: 100.5)
        let minted = try await f.minting().execute(token: token, audience: nil)
        #expect(minted.expiresAt == TokenFixture.seconds(session.expiresAt))
    }

    @Test func anEndedUnknownOrMalformedSessionTokenIsUnauthorized() async throws {
        let f = TokenFixture()
        let (token, session) = f.signedIn()
        f.end(session)
        for presented in [token, "token-999", "not-a-token", nil] as [String?] {
            await #expect(throws: ServiceTokenError.unauthorized) {
                try await f.minting().execute(token: presented, audience: nil)
            }
        }
        // An expired session too.
        let (other, _) = f.signedIn(lifetime: 60)
        f.clock.advance(by: 61)
        await #expect(throws: ServiceTokenError.unauthorized) {
            try await f.minting().execute(token: other, audience: nil)
        }
        #expect(f.store.tables.signingKeys.isEmpty, "no key is made for a refused request")
    }

    @Test func withTokensOffNothingIsSigned() async throws {
        let f = TokenFixture()
        let (token, _) = f.signedIn()
        #expect(throws: ServiceTokenError.tokensUnavailable) { try f.minting(tokensOn: false).checkEnabled() }
        await #expect(throws: ServiceTokenError.tokensUnavailable) {
            try await f.minting(tokensOn: false).execute(token: token, audience: nil)
        }
        #expect(f.store.tables.signingKeys.isEmpty)
    }

    @Test func aRotationsKeySignsOnlyOncePublishedForTenMinutes() async throws {
        let f = TokenFixture()
        let (token, _) = f.signedIn(lifetime: 86_400)
        let first = try await f.minting().execute(token: token, audience: nil)
        let next = try await f.rotation.rotate()
        #expect(next.retiring == first.keyID)
        f.clock.advance(by: SigningKeySet.publicationLead - 1)
        #expect(try await f.minting().execute(token: token, audience: nil).keyID == first.keyID)
        f.clock.advance(by: 1)
        #expect(try await f.minting().execute(token: token, audience: nil).keyID == next.key.id)
    }

    @Test func aKeyRevokedElsewhereStopsSigningWithinTheCachesBound() async throws {
        let f = TokenFixture()
        let (token, _) = f.signedIn(lifetime: 86_400)
        let first = try await f.minting().execute(token: token, audience: nil)
        // Another instance revokes it: this one's cache may sign with it for at most its bound.
        let replacement = try #require(try await f.rotation.revoke(first.keyID))
        f.clock.advance(by: SigningKeyCache.maximumAge)
        #expect(try await f.minting().execute(token: token, audience: nil).keyID == replacement.key.id)
    }

    @Test func aKeyThatDoesNotOpenIsAnInternalFailure() async throws {
        let f = TokenFixture()
        let (token, _) = f.signedIn()
        // The key set was made under another DATA_ENCRYPTION_KEY.
        let other = TokenFixture(sealer: LabelledSecretSealer(name: "data-key-2"))
        let made = try await SigningKeyRotationUseCase(
            store: f.store, format: f.format, sealer: other.sealer, policy: f.policy, clock: f.clock, random: f.random
        ).ensure()
        #expect(made != nil)
        await #expect {
            try await f.minting().execute(token: token, audience: nil)
        } throws: { error in
            guard case .internalFailure = error as? ServiceTokenError else { return false }
            return true
        }
    }

    @Test func aDatabaseAwayIsUnavailable() async throws {
        let f = TokenFixture()
        let (token, _) = f.signedIn()
        f.store.failNext(.unavailable)
        await #expect(throws: ServiceTokenError.unavailable) {
            try await f.minting().execute(token: token, audience: nil)
        }
    }
}
