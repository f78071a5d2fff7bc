import Foundation
import PasskeyDatabaseTestSupport
import PasskeyTestSupport
import Testing

/// (v4) `passkey-server operators add|list|remove` through the real executable: the token is
/// printed once, by `add`; `list` shows names and roles only.
@Suite struct OperatorCommandTests {
    @Test func operatorsAreAddedListedAndRemovedFromTheCommandLine() async throws {
        try await withTestDatabase { database, _ in
            let env = [
                "DATABASE_URL": database.conninfo, "PASSKEY_RP_ID": "localhost",
                "PASSKEY_ORIGINS": "http://localhost:8080",
            ]
            #expect(try await runServerCommand(["migrate"], env).status == 0)
            #expect(try await runServerCommand(["operators", "list"], env).output.contains("(no operators)"))
            let added = try await runServerCommand(["operators", "add", "Hanako Sato", "--role", "support"], env)
            #expect(added.status == 0, "\(added.output)")
            let token = try #require(added.output.split(separator: "\n").first { $0.hasPrefix("token ") }?.dropFirst(6))
            #expect(token.count == 43)
            let list = try await runServerCommand(["operators", "list"], env)
            #expect(list.output.contains("Hanako Sato") && list.output.contains("support"))
            #expect(!list.output.contains(String(token)))
            #expect(
                try await runServerCommand(["operators", "add", "Hanako Sato", "--role", "admin"], env).status == 1)
            #expect(try await runServerCommand(["operators", "add", "Ken", "--role", "root"], env).status == 1)
            #expect(try await runServerCommand(["operators", "add", "operator", "--role", "admin"], env).status == 1)
            #expect(try await runServerCommand(["operators", "add", "Ken"], env).status == 2)
            #expect(try await runServerCommand(["operators", "add", "Ken", "--rank", "admin"], env).status == 2)
            #expect(try await runServerCommand(["operators", "remove", "Hanako Sato"], env).status == 0)
            #expect(try await runServerCommand(["operators", "remove", "Hanako Sato"], env).status == 1)
            #expect(try await runServerCommand(["operators", "list"], env).output.contains("(no operators)"))
            #expect(try await runServerCommand(["operators", "--help"], env).status == 0)
        }
    }
}
