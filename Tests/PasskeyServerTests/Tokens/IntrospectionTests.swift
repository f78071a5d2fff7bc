import Foundation
import PasskeyDatabaseTestSupport
import PasskeyOpenSSL
import PasskeyTestSupport
import Testing

/// (v4) `POST /v1/introspect` called as RFC 7662 and RFC 6749 §2.3.1 describe (form-encoded,
/// HTTP Basic), on the real server and PostgreSQL: the active answers for an opaque token and a
/// JWT, the one byte-identical inactive answer for every kind of inactive token, and the client
/// check before anything is read.
@Suite struct IntrospectionTests {
    static let inactive = #"{"active":false}"#

    @Test func anActiveOpaqueTokenAndAnActiveJWTAreDescribed() async throws {
        try await withServer(environment: TokenEnvironment.on()) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let opaque = try await client.introspect(token)
            #expect(opaque.status == 200)
            #expect(opaque.headers["cache-control"] == "no-store")
            #expect(opaque.json["active"] as? Bool == true)
            #expect(opaque.json["token_type"] as? String == "Bearer")
            #expect(opaque.json["amr"] as? [String] == ["pwd"])
            #expect(opaque.json["method"] as? String == "password")
            #expect(opaque.json["stage"] as? String == "password-only")
            #expect(opaque.json["iss"] == nil)
            #expect(opaque.json["aud"] == nil)
            let account = try await client.send("GET", "/v1/account", token: token)
            #expect(opaque.json["sub"] as? String == account.string("accountID"))
            let iat = try #require(opaque.json["iat"] as? Int)
            let exp = try #require(opaque.json["exp"] as? Int)
            #expect(exp - iat >= 2_592_000 - 2)  // the session's own lifetime (30 days)

            let jwt = try await client.serviceToken(token, audience: TokenEnvironment.otherAudience)
            let claims = try DecodedJWT(jwt).claims
            let signed = try await client.introspect(jwt)
            #expect(signed.json["active"] as? Bool == true)
            #expect(signed.json["iss"] as? String == TokenEnvironment.issuer)
            #expect(signed.json["aud"] as? String == TokenEnvironment.otherAudience)
            #expect(signed.json["jti"] as? String == claims["jti"] as? String)
            #expect(signed.json["exp"] as? Int == claims["exp"] as? Int)
            #expect(signed.json["sid"] as? String == opaque.json["sid"] as? String)
            // A JWT's stage is the one it was made with; the opaque token's is the account's now.
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            #expect(try await client.introspect(jwt).json["stage"] as? String == "password-only")
            #expect(try await client.introspect(token).json["stage"] as? String == "password-and-passkey")
        }
    }

    /// Every kind of inactive token gets exactly `{"active":false}`, byte for byte.
    @Test func everyInactiveTokenGetsTheSameBytes() async throws {
        try await withServer(environment: TokenEnvironment.on()) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let jwt = try await client.serviceToken(token)
            let parts = jwt.split(separator: ".").map(String.init)
            let keys = try #require(
                try await client.send("GET", "/.well-known/jwks.json").json["keys"] as? [[String: Any]])
            func b64(_ bytes: [UInt8]) -> String {
                Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            func header(_ object: [String: Any]) throws -> String {
                b64(Array(try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)))
            }
            let kid = try #require(keys.first?["kid"] as? String)
            // HS256 with the published key's JSON as the secret (the classic confusion attack).
            let hsHeader = try header(["alg": "HS256", "kid": kid, "typ": "at+jwt"])
            let keyJSON = try JSONSerialization.data(withJSONObject: keys[0], options: .sortedKeys)
            let hmac = try HMACSHA256.code(for: Array("\(hsHeader).\(parts[1])".utf8), key: Array(keyJSON))
            var tampered = Array(parts[2].utf8)
            tampered[5] = tampered[5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            // A token signed by a key of our own making, named by a kid the server does not know.
            let foreign = try PrivateKey.generateEC(curve: .p256)
            let foreignHeader = try header(["alg": "ES256", "kid": "not-one-of-ours-at-all", "typ": "at+jwt"])
            let foreignSignature = try foreign.sign(Array("\(foreignHeader).\(parts[1])".utf8), scheme: .ecdsa(.sha256))
            var claims = try DecodedJWT(jwt).claims
            claims["iss"] = "https://someone-else.example.com"
            let otherIssuer = b64(Array(try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys)))
            let inactive = [
                "an unknown opaque token": (token.first == "x" ? "y" : "x") + token.dropFirst(),
                "garbage": "not a token at all",
                "a JWT with a changed signature":
                    "\(parts[0]).\(parts[1]).\(String(decoding: tampered, as: UTF8.self))",
                "alg none": "\(try header(["alg": "none", "kid": kid, "typ": "at+jwt"])).\(parts[1]).",
                "HS256 with the public key as secret": "\(hsHeader).\(parts[1]).\(b64(hmac))",
                "a foreign kid":
                    "\(foreignHeader).\(parts[1]).\(b64(ECDSASignature.raw(fromDER: foreignSignature, coordinateLength: 32)!))",
                "a wrong issuer (signature no longer matches)": "\(parts[0]).\(otherIssuer).\(parts[2])",
                "a JWT's claims without its signature": "\(parts[0]).\(parts[1])",
            ]
            for (kind, presented) in inactive {
                let answer = try await client.introspect(presented)
                #expect(answer.status == 200, "\(kind)")
                #expect(answer.text == Self.inactive, "\(kind): \(answer.text)")
            }
            #expect(try await client.introspect(jwt).json["active"] as? Bool == true)
        }
    }

    /// Inactive at once, although the JWT has not expired: sign-out, ending the session, password
    /// removal ending the other sessions, and the account's deletion.
    @Test func aSessionThatEndedMakesItsTokensInactiveAtOnce() async throws {
        try await withServer(environment: TokenEnvironment.on()) { server, _ in
            let client = server.client
            // Sign-out.
            let (first, _) = try await client.passwordUser()
            let firstJWT = try await client.serviceToken(first)
            #expect(try await client.send("DELETE", "/v1/sessions/current", token: first).status == 204)
            for token in [first, firstJWT] { #expect(try await client.introspect(token).text == Self.inactive) }

            // Ended by the user from another session, then the password goes and takes the rest.
            let (token, email) = try await client.passwordUser(password: "correct horse battery")
            let other = try #require(
                try await client.send(
                    "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"]
                ).string("accessToken"))
            let third = try #require(
                try await client.send(
                    "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"]
                ).string("accessToken"))
            let otherJWT = try await client.serviceToken(other)
            let thirdJWT = try await client.serviceToken(third)
            let sessions = try await client.send("GET", "/v1/account/sessions", token: token).jsonArray
            let otherID = try #require(
                DecodedJWT(otherJWT).claims["sid"] as? String)
            #expect(sessions.contains { $0["sessionID"] as? String == otherID })
            #expect(try await client.send("DELETE", "/v1/account/sessions/\(otherID)", token: token).status == 204)
            #expect(try await client.introspect(otherJWT).text == Self.inactive)
            #expect(try await client.introspect(thirdJWT).json["active"] as? Bool == true)
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let passkeySession = try #require(try await client.signIn(&passkey).string("accessToken"))
            _ = try await client.recoveryCodes(token: passkeySession)
            #expect(try await client.send("DELETE", "/v1/account/password", token: passkeySession).status == 204)
            for ended in [third, thirdJWT, token] { #expect(try await client.introspect(ended).text == Self.inactive) }

            // Deletion.
            let passkeyJWT = try await client.serviceToken(passkeySession)
            #expect(try await client.introspect(passkeyJWT).json["active"] as? Bool == true)
            #expect(try await client.send("DELETE", "/v1/account", token: passkeySession).status == 204)
            for gone in [passkeySession, passkeyJWT] {
                #expect(try await client.introspect(gone).text == Self.inactive)
            }
        }
    }

    /// A missing or wrong client is 401 before the token (or even the body) is read.
    @Test func aWrongClientIsRefusedBeforeTheTokenIsRead() async throws {
        try await withServer(environment: TokenEnvironment.on()) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let wrong = [
                nil, TokenEnvironment.basic(TokenEnvironment.clientID, TokenEnvironment.clientSecret + "x"),
                TokenEnvironment.basic("other", TokenEnvironment.clientSecret), "Bearer \(token)", "Basic !!!",
                "Basic " + Data("gateway".utf8).base64EncodedString(),
            ]
            for authorization in wrong {
                let refused = try await client.introspect(token, authorization: authorization)
                #expect(refused.status == 401, "\(authorization ?? "none")")
                #expect(refused.code == "unauthorized")
                #expect(refused.headers["www-authenticate"] == #"Basic realm="introspection""#)
                // Before the body: a body that is not a form changes nothing.
                let garbage = try await client.send(
                    "POST", "/v1/introspect", raw: Array("{\"no\":".utf8),
                    headers: authorization.map { ["Authorization": $0] } ?? [:])
                #expect(garbage.status == 401)
            }
            // The right client, but no token (or two, or not a form): 400.
            for body in ["", "token_type_hint=access_token", "token=a&token=b"] {
                let missing = try await client.send(
                    "POST", "/v1/introspect", raw: Array(body.utf8),
                    headers: [
                        "Authorization": TokenEnvironment.basic(), "Content-Type": "application/x-www-form-urlencoded",
                    ])
                #expect(missing.status == 400, "\(body)")
                #expect(missing.code == "invalid-request")
            }
            let json = try await client.send(
                "POST", "/v1/introspect", json: ["token": token], headers: ["Authorization": TokenEnvironment.basic()])
            #expect(json.status == 400)
            // token_type_hint is accepted and ignored.
            let hinted = try await client.send(
                "POST", "/v1/introspect", raw: Array("token_type_hint=refresh_token&token=\(token)".utf8),
                headers: [
                    "Authorization": TokenEnvironment.basic(), "Content-Type": "application/x-www-form-urlencoded",
                ])
            #expect(hinted.json["active"] as? Bool == true)
        }
    }
}
