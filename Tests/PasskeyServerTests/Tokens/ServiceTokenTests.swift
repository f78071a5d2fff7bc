import Foundation
import PasskeyDatabaseTestSupport
import PasskeyTestSupport
import Testing

/// (v4) `POST /v1/sessions/current/tokens` and `GET /.well-known/jwks.json` on the real server
/// and PostgreSQL: every claim, each `amr`/`method`/`stage`, the audience rules, `exp` capped by
/// the session, and tokens off. (A JOSE library judges the signatures in `TokenJOSETests`.)
@Suite struct ServiceTokenTests {
    @Test func aSessionBecomesAJWTWithEveryClaimAndNothingElse() async throws {
        try await withServer(environment: TokenEnvironment.on()) { server, _ in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            let account = try await client.send("GET", "/v1/account", token: token)
            let minted = try await client.send("POST", "/v1/sessions/current/tokens", token: token)
            #expect(minted.status == 201)
            #expect(minted.string("tokenType") == "JWT")
            #expect(minted.string("audience") == TokenEnvironment.audience)
            let jwt = try DecodedJWT(try #require(minted.string("token")))
            #expect(jwt.header["alg"] as? String == "ES256")
            #expect(jwt.header["typ"] as? String == "at+jwt")
            let kid = try #require(jwt.header["kid"] as? String)
            #expect(jwt.header.count == 3)
            let claims = jwt.claims
            #expect(
                Set(claims.keys)
                    == ["iss", "aud", "sub", "sid", "jti", "iat", "exp", "auth_time", "amr", "method", "stage"])
            #expect(claims["iss"] as? String == TokenEnvironment.issuer)
            #expect(claims["aud"] as? String == TokenEnvironment.audience)
            #expect(claims["sub"] as? String == account.string("accountID"))
            let sessions = try await client.send("GET", "/v1/account/sessions", token: token)
            let current = try #require(sessions.jsonArray.first { $0["current"] as? Bool == true })
            #expect(claims["sid"] as? String == current["sessionID"] as? String)
            #expect(UUID(uuidString: claims["jti"] as? String ?? "") != nil)
            let iat = try #require(claims["iat"] as? Int)
            #expect(abs(Double(iat) - Date().timeIntervalSince1970) < 30)
            #expect(claims["exp"] as? Int == iat + 300)
            #expect(claims["amr"] as? [String] == ["pwd"])
            #expect(claims["method"] as? String == "password")
            #expect(claims["stage"] as? String == "password-only")
            // Nothing personal in the token.
            let text = String(describing: claims)
            #expect(!text.contains(email))
            #expect(!text.contains("Taro"))
            // A new jti each time; the key is in the set.
            let again = try DecodedJWT(try await client.serviceToken(token))
            #expect(again.claims["jti"] as? String != claims["jti"] as? String)
            let keys = try await client.send("GET", "/.well-known/jwks.json")
            #expect(keys.status == 200)
            #expect(keys.headers["cache-control"] == "public, max-age=300")
            let jwks = try #require(keys.json["keys"] as? [[String: Any]])
            let jwk = try #require(jwks.first { $0["kid"] as? String == kid })
            #expect(jwk["kty"] as? String == "EC")
            #expect(jwk["crv"] as? String == "P-256")
            #expect(jwk["use"] as? String == "sig")
            #expect(jwk["alg"] as? String == "ES256")
            #expect((jwk["x"] as? String)?.count == 43)
            #expect((jwk["y"] as? String)?.count == 43)
            #expect(jwk["d"] == nil)
        }
    }

    @Test func amrMethodAndStageFollowTheWayInAndTheAccount() async throws {
        try await withServer(environment: try await MailEnvironment.on(TokenEnvironment.on())) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            // A verified address: the email sign-in below is then a recovery, not a take-back.
            try await EmailVerificationTests.verify(email, token: token, client: client, database: database)
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let both = try DecodedJWT(try await client.serviceToken(token)).claims
            #expect(both["stage"] as? String == "password-and-passkey")
            // A passkey sign-in, user-verified: proof of possession by the user, and a second factor.
            let signedIn = try await client.signIn(&passkey)
            let passkeyToken = try #require(signedIn.string("accessToken"))
            let viaPasskey = try DecodedJWT(try await client.serviceToken(passkeyToken)).claims
            #expect(viaPasskey["amr"] as? [String] == ["pop", "user", "mfa"])
            #expect(viaPasskey["method"] as? String == "passkey")
            // A recovery code and a mailed code: one-time passwords.
            let codes = try await client.recoveryCodes(token: token)
            let recovered = try await client.send(
                "POST", "/v1/recovery/sessions", json: ["email": email, "code": codes[0]])
            let viaCode = try DecodedJWT(
                try await client.serviceToken(try #require(recovered.string("accessToken")))
            ).claims
            #expect(viaCode["amr"] as? [String] == ["otp"])
            #expect(viaCode["method"] as? String == "recovery")
            let mailed = try await EmailRecoveryTests.signInByEmail(email, client: client, database: database)
            let viaMail = try DecodedJWT(
                try await client.serviceToken(try #require(mailed.string("accessToken")))
            ).claims
            #expect(viaMail["amr"] as? [String] == ["otp"])
            #expect(viaMail["method"] as? String == "email")
            // Stage ③: the password goes (the passkey has signed in, recovery is set up).
            #expect(try await client.send("DELETE", "/v1/account/password", token: passkeyToken).status == 204)
            let passkeyOnly = try DecodedJWT(try await client.serviceToken(passkeyToken)).claims
            #expect(passkeyOnly["stage"] as? String == "passkey-only")
        }
    }

    @Test func anAccountWithNeitherIsStageNone() async throws {
        try await withServer(environment: try await MailEnvironment.on(TokenEnvironment.on())) { server, database in
            let client = server.client
            let (token, email) = try await client.passwordUser()
            // The take-back of a never-verified account deletes its password: nothing is left.
            _ = token
            let owner = try await EmailRecoveryTests.signInByEmail(email, client: client, database: database)
            let claims = try DecodedJWT(
                try await client.serviceToken(try #require(owner.string("accessToken")))
            ).claims
            #expect(claims["stage"] as? String == "none")
        }
    }

    @Test func onlyAConfiguredAudienceIsGranted() async throws {
        try await withServer(environment: TokenEnvironment.on()) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let other = try DecodedJWT(try await client.serviceToken(token, audience: TokenEnvironment.otherAudience))
            #expect(other.claims["aud"] as? String == TokenEnvironment.otherAudience)
            for audience in ["https://evil.example.com", "", "https://api.example.com/"] {
                let refused = try await client.send(
                    "POST", "/v1/sessions/current/tokens", json: ["audience": audience], token: token)
                #expect(refused.status == 400, "\(audience)")
                #expect(refused.code == "invalid-request")
            }
            let mistyped = try await client.send(
                "POST", "/v1/sessions/current/tokens", raw: Array(#"{"audience":5}"#.utf8), token: token)
            #expect(mistyped.status == 400)
            #expect(try await client.send("POST", "/v1/sessions/current/tokens").status == 401)
        }
    }

    /// `exp` is `iat` + `TOKEN_LIFETIME_SECONDS`, never later than the session's own end.
    @Test func theTokenNeverOutlivesItsSession() async throws {
        let environment = TokenEnvironment.on(["TOKEN_LIFETIME_SECONDS": "3600", "SESSION_LIFETIME_SECONDS": "120"])
        try await withServer(environment: environment) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let claims = try DecodedJWT(try await client.serviceToken(token)).claims
            let iat = try #require(claims["iat"] as? Int)
            let exp = try #require(claims["exp"] as? Int)
            #expect(exp <= iat + 120)
            #expect(exp >= iat + 115)
        }
    }

    @Test func withoutADataEncryptionKeyNothingIsSigned() async throws {
        try await withServer { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let refused = try await client.send("POST", "/v1/sessions/current/tokens", token: token)
            #expect(refused.status == 503)
            #expect(refused.code == "tokens-unavailable")
            // The token is checked first.
            #expect(try await client.send("POST", "/v1/sessions/current/tokens").status == 401)
            let keys = try await client.send("GET", "/.well-known/jwks.json")
            #expect(keys.status == 200)
            #expect(keys.text == #"{"keys":[]}"#)
            // No introspection client configured: the path does not exist.
            #expect(try await client.introspect(token).status == 404)
        }
    }
}
