import Foundation
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyTestSupport
import Testing

/// (v4) `passkey-server keys list|rotate|revoke` through the real executable, the start-up check
/// of `DATA_ENCRYPTION_KEY`, and what never reaches a log line: the private keys and the tokens.
@Suite struct SigningKeyTests {
    private func run(_ arguments: [String], _ environment: [String: String]) async throws -> (
        status: Int32, output: String
    ) {
        try await runServerCommand(arguments, environment)
    }

    @Test func keysAreListedRotatedAndRevokedFromTheCommandLine() async throws {
        try await withTestDatabase { database, _ in
            var env = TokenEnvironment.on()
            env["DATABASE_URL"] = database.conninfo
            #expect(try await run(["migrate"], env).status == 0)
            let empty = try await run(["keys", "list"], env)
            #expect(empty.status == 0)
            #expect(empty.output.contains("no keys"))
            // With none, rotate makes the first, which signs at once.
            let first = try await run(["keys", "rotate"], env)
            #expect(first.status == 0, "\(first.output)")
            let firstKid = try #require(first.output.split(separator: " ").dropFirst(2).first.map(String.init))
            let second = try await run(["keys", "rotate"], env)
            #expect(second.output.contains("stops signing then"), "\(second.output)")
            let list = try await run(["keys", "list"], env)
            #expect(list.output.contains(firstKid))
            #expect(list.output.contains("signing"))
            #expect(list.output.contains("next"))
            // No private key in the listing: only IDs, states and times.
            #expect(!list.output.contains("BEGIN"))
            let revoked = try await run(["keys", "revoke", firstKid], env)
            #expect(revoked.status == 0, "\(revoked.output)")
            #expect(revoked.output.contains("signs from now"))
            #expect(try await run(["keys", "list"], env).output.contains("revoked"))
            let again = try await run(["keys", "revoke", firstKid], env)
            #expect(again.status == 1)
            #expect(try await run(["keys", "revoke"], env).status == 2)
            #expect(try await run(["keys", "shuffle"], env).status == 2)
            var off = env
            off["DATA_ENCRYPTION_KEY"] = nil
            let refused = try await run(["keys", "rotate"], off)
            #expect(refused.status == 1)
            #expect(refused.output.contains("DATA_ENCRYPTION_KEY"))
            #expect(try await run(["keys", "--help"], env).status == 0)
        }
    }

    /// A `DATA_ENCRYPTION_KEY` that cannot open the stored keys stops `serve` at start with one
    /// line naming the variable; a malformed one too.
    @Test func aDataEncryptionKeyThatDoesNotFitStopsTheServer() async throws {
        try await withTestDatabase { database, _ in
            var env = TokenEnvironment.on([
                "PORT": "0", "PASSKEY_RP_ID": "localhost", "PASSKEY_ORIGINS": TestServer.origin,
            ])
            env["DATABASE_URL"] = database.conninfo
            #expect(try await run(["migrate"], env).status == 0)
            #expect(try await run(["keys", "rotate"], env).status == 0)
            var other = env
            other["DATA_ENCRYPTION_KEY"] = Data((0..<32).map { UInt8($0) }).base64EncodedString()
            let stopped = try await run(["serve"], other)
            #expect(stopped.status == 1)
            let lines = stopped.output.split(separator: "\n").filter { !$0.contains("level=") }
            #expect(lines.count == 1, "\(stopped.output)")
            #expect(lines.first?.contains("DATA_ENCRYPTION_KEY") == true)
            for malformed in ["short", Data(repeating: 1, count: 16).base64EncodedString()] {
                other["DATA_ENCRYPTION_KEY"] = malformed
                let refused = try await run(["serve"], other)
                #expect(refused.status == 1)
                #expect(refused.output.contains("DATA_ENCRYPTION_KEY"))
            }
        }
    }

    /// No token, no signature, no private key in any log line, at the most verbose level.
    @Test func neitherTokensNorPrivateKeysReachTheLog() async throws {
        let logs = LogCapture()
        try await withServer(environment: TokenEnvironment.on(["LOG_LEVEL": "debug"]), logSink: logs.sink) {
            server, database in
            let client = server.client
            let (token, _) = try await client.passwordUser()
            let jwt = try await client.serviceToken(token)
            _ = try await client.introspect(jwt)
            _ = try await client.introspect(token)
            _ = try await client.introspect(jwt + "x")
            let pool = database.makePool(maximumConnections: 1)
            defer { pool.close() }
            let sealed = try await pool.withConnection { c async throws(PostgresError) -> [UInt8] in
                try await c.query("SELECT private_key FROM signing_keys LIMIT 1").first?.decode(
                    [UInt8].self, column: "private_key") ?? []
            }
            #expect(!sealed.isEmpty)
            let text = logs.text
            #expect(text.contains("/v1/sessions/current/tokens"))
            for secret in [token, jwt, String(jwt.split(separator: ".")[2])] { #expect(!text.contains(secret)) }
            let hex = sealed.map { String(format: "%02x", $0) }.joined()
            #expect(!text.contains(hex))
            #expect(!text.contains(Data(sealed).base64EncodedString()))
        }
    }
}
