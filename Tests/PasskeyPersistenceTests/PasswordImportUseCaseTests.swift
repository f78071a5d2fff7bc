import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The import use case on the real repository: validation refuses before anything is written.
@Suite struct PasswordImportUseCaseTests {
    private let bcrypt = "$2b$04$cSLtjkxpAZcwPsDtveNc2.jTllJfJ1L8bKg0XTrl2vQFifoB8oAM6"

    private func count(_ pool: PostgresConnectionPool) async throws -> Int {
        try await pool.withConnection { c async throws(PostgresError) in
            try await c.query("SELECT count(*) FROM accounts").first!.decode(Int.self, column: "count")
        }
    }

    @Test func invalidLinesAndDuplicatesRefuseTheWholeFile() async throws {
        try await withTestDatabase { _, pool in
            let useCase = PasswordImportUseCase(accounts: PostgresAccountRepository(pool: pool), clock: SystemClock())
            let good = PasswordImportRecord(email: "a@example.com", displayName: "A", passwordHash: bcrypt)
            let cases: [([PasswordImportRecord], PasswordImportError)] = [
                (
                    [good, PasswordImportRecord(email: "nope", displayName: "B", passwordHash: bcrypt)],
                    .invalidRecord(line: 2, field: "email")
                ),
                (
                    [good, PasswordImportRecord(email: "b@example.com", displayName: "", passwordHash: bcrypt)],
                    .invalidRecord(line: 2, field: "displayName")
                ),
                (
                    [good, PasswordImportRecord(email: "b@example.com", displayName: "B", passwordHash: "plaintext")],
                    .invalidRecord(line: 2, field: "passwordHash")
                ),
                (
                    [good, PasswordImportRecord(email: "A@Example.com", displayName: "A2", passwordHash: bcrypt)],
                    .duplicateEmail(line: 2)
                ),
            ]
            for (records, expected) in cases {
                await #expect(throws: expected) { _ = try await useCase.execute(records, progress: { _ in }) }
            }
            let none = try await count(pool)
            #expect(none == 0)
            let imported = try await useCase.execute([good], progress: { _ in })
            #expect(imported == 1)
            await #expect(throws: PasswordImportError.duplicateEmail(line: nil)) {
                _ = try await useCase.execute([good], progress: { _ in })
            }
            let one = try await count(pool)
            #expect(one == 1)
        }
    }
}
