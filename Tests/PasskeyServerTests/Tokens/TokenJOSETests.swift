import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

/// (v4) The server's JWTs judged by a JOSE library nobody here wrote: PyJWT's `PyJWKClient`
/// fetches the served key set over HTTP and `jwt.decode` checks alg (ES256 only), signature,
/// `iss`, `aud` and `exp` (scripts/verify-jwts.py). And the key set's life across two instances
/// on one database: a rotation's key published before it signs, a revoked key gone at once.
@Suite struct TokenJOSETests {
    /// PyJWT's verdict on each token, verified against `server`'s `/.well-known/jwks.json`.
    static func pyJWT(_ tokens: [String], server: TestServer, audience: String = TokenEnvironment.audience)
        async throws -> [[String: Any]]
    {
        let python = PackagePaths.root.appendingPathComponent(".tools/venv/bin/python").path
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "PyJWT lives in .tools/venv: run make test (scripts/deps.sh --with-test-tools installs it)")
        let script = PackagePaths.root.appendingPathComponent("scripts/verify-jwts.py").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pyjwt-\(UUID().uuidString).log").path
        let errors = log + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: errors)
        }
        let port = try #require(server.server?.port)
        do {
            try await ChildProcess.run(
                [python, script, "http://127.0.0.1:\(port)/.well-known/jwks.json", TokenEnvironment.issuer, audience]
                    + tokens, logFile: log, errorFile: errors)
        } catch {
            Issue.record("verify-jwts.py: \(error): \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            throw error
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        return try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// What `passkey-server keys rotate|revoke` run, on `server`'s ports and configuration.
    static func rotation(_ server: TestServer) throws -> SigningKeyRotationUseCase {
        let d = server.root.dependencies
        return SigningKeyRotationUseCase(
            store: d.store, format: d.tokenFormat, sealer: try #require(d.sealer),
            policy: server.root.configuration.tokens.policy, clock: d.clock, random: d.random)
    }

    @Test func pyJWTVerifiesEveryMintedTokenAndRefusesTheForgedOnes() async throws {
        try await withServer(environment: TokenEnvironment.on(), transport: .socket) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            var passkey = try TestPasskey()
            #expect(try await client.addPasskey(&passkey, token: token).status == 204)
            let passkeyToken = try #require(try await client.signIn(&passkey).string("accessToken"))
            let minted = [try await client.serviceToken(token), try await client.serviceToken(passkeyToken)]
            let verdicts = try await Self.pyJWT(minted, server: server)
            #expect(verdicts.count == 2)
            for (jwt, verdict) in zip(minted, verdicts) {
                #expect(verdict["ok"] as? Bool == true, "\(verdict)")
                let claims = try #require(verdict["claims"] as? [String: Any])
                let ours = try DecodedJWT(jwt).claims
                #expect(claims["sub"] as? String == ours["sub"] as? String)
                #expect(claims["sid"] as? String == ours["sid"] as? String)
                #expect(claims["amr"] as? [String] == ours["amr"] as? [String])
                #expect((verdict["header"] as? [String: Any])?["typ"] as? String == "at+jwt")
            }
            // The other audience's token is refused for this audience, accepted for its own.
            let other = try await client.serviceToken(token, audience: TokenEnvironment.otherAudience)
            #expect(try await Self.pyJWT([other], server: server)[0]["error"] as? String == "InvalidAudienceError")
            #expect(
                try await Self.pyJWT([other], server: server, audience: TokenEnvironment.otherAudience)[0]["ok"]
                    as? Bool == true)
            // Forged: a changed claim, alg none.
            let parts = minted[0].split(separator: ".").map(String.init)
            let forged = ["\(parts[0]).\(parts[1].dropLast())A.\(parts[2])", "\(parts[0]).\(parts[1])."]
            for verdict in try await Self.pyJWT(forged, server: server) {
                #expect(verdict["ok"] as? Bool == false, "\(verdict)")
            }
        }
    }

    /// Examples/ResourceServer's two checks against the real server: local verification with the
    /// published keys, and introspection; after sign-out only introspection refuses the token
    /// (what docs/tokens.md tells a backend team to weigh).
    @Test func theExampleResourceServerChecksTokensBothWays() async throws {
        try await withServer(environment: TokenEnvironment.on(), transport: .socket) { server, _ in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let jwt = try await client.serviceToken(token)
            let port = try #require(server.server?.port)
            func example(_ command: String) async throws -> [String: Any] {
                let python = PackagePaths.root.appendingPathComponent(".tools/venv/bin/python").path
                let script = PackagePaths.root.appendingPathComponent("Examples/ResourceServer/resource_server.py").path
                let log = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
                    .path
                defer { try? FileManager.default.removeItem(atPath: log) }
                try await ChildProcess.run(
                    [python, script, command, jwt], logFile: log,
                    environment: [
                        "PASSKEY_SERVER": "http://127.0.0.1:\(port)", "TOKEN_ISSUER": TokenEnvironment.issuer,
                        "TOKEN_AUDIENCE": TokenEnvironment.audience,
                        "INTROSPECTION_CLIENT_ID": TokenEnvironment.clientID,
                        "INTROSPECTION_CLIENT_SECRET": TokenEnvironment.clientSecret,
                    ])
                let output = try String(contentsOfFile: log, encoding: .utf8)
                return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            }
            #expect(try await example("verify")["ok"] as? Bool == true)
            #expect(try await example("introspect")["active"] as? Bool == true)
            #expect(try await client.send("DELETE", "/v1/sessions/current", token: token).status == 204)
            #expect(try await example("verify")["ok"] as? Bool == true, "a JWT verifies until its exp")
            #expect(try await example("introspect")["active"] as? Bool == false)
        }
    }

    /// Rotation and revocation with two instances on one database and one clock: the next key is
    /// in both key sets at once and signs on both only after 600 s; a revoked key leaves both
    /// sets at once, its tokens introspect as inactive on both, and PyJWT refuses them.
    @Test func rotationAndRevocationHoldAcrossTwoInstances() async throws {
        let clock = FixedClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let environment = TokenEnvironment.on()
        try await withServer(environment: environment, clock: clock, transport: .socket) { first, database in
            let second = try TestServer(
                conninfo: database.conninfo, environment: environment, clock: clock, transport: .socket)
            do {
                let (token, _) = try await first.client.passwordUser()
                func kid(_ jwt: String) throws -> String { try #require(try DecodedJWT(jwt).header["kid"] as? String) }
                func published(_ server: TestServer) async throws -> Set<String> {
                    let keys =
                        try await server.client.send("GET", "/.well-known/jwks.json").json["keys"] as? [[String: Any]]
                    return Set((keys ?? []).compactMap { $0["kid"] as? String })
                }
                let original = try kid(try await first.client.serviceToken(token))
                #expect(try kid(try await second.client.serviceToken(token)) == original)

                let rotation = try Self.rotation(first)
                let next = try await rotation.rotate().key.id.value
                #expect(next != original)
                for server in [first, second] { #expect(try await published(server) == [original, next]) }
                for server in [first, second] {
                    #expect(try kid(try await server.client.serviceToken(token)) == original, "signs too early")
                }
                clock.advance(by: SigningKeySet.publicationLead + 1)
                let afterRotation = try await second.client.serviceToken(token)
                #expect(try kid(afterRotation) == next)
                #expect(try kid(try await first.client.serviceToken(token)) == next)
                // The retired key stays published until its tokens have expired (300 s).
                #expect(try await published(first) == [original, next])
                clock.advance(by: 301)
                #expect(try await published(second) == [next])
                _ = try DecodedJWT(afterRotation)

                // Revoked on the second instance: gone from the first's key set at once.
                let beforeRevocation = try await first.client.serviceToken(token)
                let nextID = try #require(SigningKeyID(next))
                let revoked = try await Self.rotation(second).revoke(nextID)
                let replacement = try #require(revoked)
                let newest = replacement.key.id.value
                for server in [first, second] {
                    #expect(try await published(server) == [newest])
                    #expect(try await server.client.introspect(beforeRevocation).text == IntrospectionTests.inactive)
                }
                // PyJWKClient no longer finds the key (it looks the kid up before anything else).
                let refused = try await Self.pyJWT([beforeRevocation], server: first)[0]
                #expect(refused["error"] as? String == "PyJWKClientError", "\(refused)")
                // The first instance learns of the new key within SigningKeyCache.maximumAge.
                clock.advance(by: SigningKeyCache.maximumAge)
                let afterRevocation = try await first.client.serviceToken(token)
                #expect(try kid(afterRevocation) == newest)
                // (Not PyJWT here: the shared test clock is 15 minutes ahead, so the token's iat is in
                // PyJWT's future.)
                #expect(try await second.client.introspect(afterRevocation).json["active"] as? Bool == true)
            } catch {
                await second.stop()
                throw error
            }
            await second.stop()
        }
    }
}
