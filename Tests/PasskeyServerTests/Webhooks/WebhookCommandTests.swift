import Foundation
import PasskeyDatabaseTestSupport
import PasskeyOpenSSL
import PasskeyTestSupport
import Testing

/// (v4) `passkey-server webhooks add|list|remove` through the real executable: the secret is
/// printed once, by `add`; `list` shows no secret; the start-up check refuses a key that cannot
/// open a stored secret.
@Suite struct WebhookCommandTests {
    private func run(_ arguments: [String], _ environment: [String: String]) async throws -> (
        status: Int32, output: String
    ) {
        try await runServerCommand(arguments, environment)
    }

    @Test func endpointsAreAddedListedAndRemovedFromTheCommandLine() async throws {
        try await withTestDatabase { database, _ in
            let key = Data(SecureRandom.bytes(count: 32)).base64EncodedString()
            let env = [
                "DATABASE_URL": database.conninfo, "DATA_ENCRYPTION_KEY": key, "PASSKEY_RP_ID": "localhost",
                "PASSKEY_ORIGINS": "http://localhost:8080",
            ]
            #expect(try await run(["migrate"], env).status == 0)
            #expect(try await run(["webhooks", "list"], env).output.contains("(no webhooks)"))
            let added = try await run(
                ["webhooks", "add", "https://crm.example.com/hooks", "--events", "stage.changed,account.deleted"], env)
            #expect(added.status == 0, "\(added.output)")
            let secret = try #require(added.output.split(separator: "\n").first { $0.hasPrefix("secret whsec_") })
            let id = try #require(added.output.split(separator: "\n").first { $0.hasPrefix("webhook ") }?.dropFirst(8))
            let list = try await run(["webhooks", "list"], env)
            #expect(list.output.contains(String(id)))
            #expect(list.output.contains("account.deleted,stage.changed"))
            #expect(list.output.contains("https://crm.example.com/hooks"))
            #expect(!list.output.contains("whsec_") && !list.output.contains(secret.dropFirst(7)))
            // Refusals: a bad URL or kind (1), a usage error (2), no key (1).
            #expect(try await run(["webhooks", "add", "http://crm.example.com/x"], env).status == 1)
            #expect(
                try await run(["webhooks", "add", "https://crm.example.com/x", "--events", "nope"], env).status == 1)
            #expect(try await run(["webhooks", "add"], env).status == 2)
            #expect(try await run(["webhooks", "add", "https://crm.example.com/x", "--color", "red"], env).status == 2)
            #expect(try await run(["webhooks", "shuffle"], env).status == 2)
            var off = env
            off.removeValue(forKey: "DATA_ENCRYPTION_KEY")
            let refused = try await run(["webhooks", "add", "https://crm.example.com/x"], off)
            #expect(refused.status == 1 && refused.output.contains("DATA_ENCRYPTION_KEY"))
            // Another key cannot open the stored secret: serve refuses to start, naming it.
            var wrong = env
            wrong["DATA_ENCRYPTION_KEY"] = Data(SecureRandom.bytes(count: 32)).base64EncodedString()
            wrong["PORT"] = "0"
            let start = try await run(["serve"], wrong)
            #expect(start.status == 1)
            #expect(start.output.contains("DATA_ENCRYPTION_KEY") && start.output.contains(String(id)))
            #expect(try await run(["webhooks", "remove", String(id)], env).status == 0)
            #expect(try await run(["webhooks", "remove", String(id)], env).status == 1)
            #expect(try await run(["webhooks", "list"], env).output.contains("(no webhooks)"))
            #expect(try await run(["webhooks", "--help"], env).status == 0)
        }
    }
}
