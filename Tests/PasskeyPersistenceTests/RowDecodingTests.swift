import Foundation
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyTestSupport
import Testing

@testable import PasskeyPersistence

/// The row types decode by column name: the same columns in another order decode to the same
/// value (by position they decoded the wrong columns, or threw on a type only by luck), and a
/// column the select lacks throws naming it.
@Suite struct RowDecodingTests {
    /// The shared column lists as `SELECT` items, split at their top-level commas.
    private static func items(_ columns: StaticString) -> [String] {
        "\(columns)".split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The credential's columns, reversed, after the account's, reversed, for one joined row.
    private static let reordered =
        "SELECT "
        + (items(AccountRow.columns).reversed() + items(PasskeyCredentialRow.columns).reversed())
        .joined(separator: ", ") + " FROM passkey_credentials pc JOIN accounts a ON a.id = pc.account_id"

    private static func first(_ pool: PostgresConnectionPool, _ select: String) async throws -> PostgresRow {
        try #require(
            try await pool.withConnection { c async throws(PostgresError) in
                try await c.query(PostgresQuery(stringLiteral: select))
            }.first)
    }

    /// Stores an account with one passkey whose transports need quoting in a `text[]`.
    private static func stored(_ pool: PostgresConnectionPool) async throws -> (Account, PasskeyCredential) {
        let repos = Repositories(pool: pool)
        let account = try await repos.passwordAccount()
        let passkey = DomainFixtures.passkey(
            accountID: account.id, signCount: 4_000_000_000, transports: ["usb", "smart card", "NULL", "a\"b\\c"],
            lastUsedAt: DomainFixtures.now())
        try await repos.addPasskey(passkey)
        return (account, passkey)
    }

    @Test func aJoinedRowInAnotherOrderDecodesTheSameAccountAndCredential() async throws {
        try await withTestDatabase { _, pool in
            let (account, passkey) = try await Self.stored(pool)
            let row = try await Self.first(pool, Self.reordered)
            #expect(try PasskeyCredentialRow.decode(row) == passkey)
            #expect(try PasskeyCredentialRow.decodeIfPresent(row) == passkey)
            #expect(try AccountRow.decode(row) == account)
            #expect(try AccountRow.decodeIfPresent(row) == account)
            // The repository's own select decodes the same credential.
            #expect(try await Repositories(pool: pool).passkeys.credentials(accountID: account.id) == [passkey])
        }
    }

    @Test(arguments: Self.items(PasskeyCredentialRow.columns).indices)
    func aCredentialColumnMissingFromTheSelectThrowsNamingIt(dropped: Int) async throws {
        try await withTestDatabase { _, pool in
            _ = try await Self.stored(pool)
            var items = Self.items(PasskeyCredentialRow.columns)
            let name = String(items.remove(at: dropped).split(separator: " ").last!.split(separator: ".").last!)
            let row = try await Self.first(pool, "SELECT \(items.joined(separator: ", ")) FROM passkey_credentials pc")
            do throws(PostgresError) {
                _ = try PasskeyCredentialRow.decode(row)
                Issue.record("decoded a credential without \(name)")
            } catch {
                #expect(error.kind == .decoding)
                #expect(error.column == name)
            }
        }
    }

    @Test(arguments: ["account_id", "account_display_name", "account_created_at"])
    func anAccountColumnMissingFromTheSelectThrowsNamingIt(dropped: String) async throws {
        try await withTestDatabase { _, pool in
            _ = try await Self.stored(pool)
            let items = Self.items(AccountRow.columns).filter { !$0.hasSuffix(" \(dropped)") }
            #expect(items.count == 2)
            let row = try await Self.first(pool, "SELECT \(items.joined(separator: ", ")) FROM accounts a")
            do throws(PostgresError) {
                _ = try AccountRow.decode(row)
                Issue.record("decoded an account without \(dropped)")
            } catch {
                #expect(error.kind == .decoding)
                #expect(error.column == dropped)
            }
        }
    }

    /// A `LEFT JOIN` that matched nothing reads as no account and no credential.
    @Test func aLeftJoinThatMatchedNothingDecodesToNil() async throws {
        try await withTestDatabase { _, pool in
            let columns = (Self.items(AccountRow.columns) + Self.items(PasskeyCredentialRow.columns))
                .joined(separator: ", ")
            let row = try await Self.first(
                pool,
                """
                SELECT \(columns) FROM (SELECT 1) AS one
                LEFT JOIN passkey_credentials pc ON false LEFT JOIN accounts a ON a.id = pc.account_id
                """)
            #expect(try AccountRow.decodeIfPresent(row) == nil)
            #expect(try PasskeyCredentialRow.decodeIfPresent(row) == nil)
        }
    }
}
