import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The import use case over `PostgresUnitOfWork`: validation refuses before anything is written,
/// and the import is one transaction, all or nothing.
@Suite struct PasswordImportUseCaseTests {
    private let bcrypt = "$2b$04$cSLtjkxpAZcwPsDtveNc2.jTllJfJ1L8bKg0XTrl2vQFifoB8oAM6"

    @Test func invalidLinesAndDuplicatesRefuseTheWholeFile() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let useCase = PasswordImportUseCase(store: repos.store, clock: SystemClock())
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
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 0)
            let imported = try await useCase.execute([good], progress: { _ in })
            #expect(imported == 1)
            await #expect(throws: PasswordImportError.duplicateEmail(line: nil)) {
                _ = try await useCase.execute([good], progress: { _ in })
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
        }
    }

    /// An address taken by an existing account refuses the whole file: the lines before it are
    /// rolled back with it.
    @Test func importIsAllOrNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let useCase = PasswordImportUseCase(store: repos.store, clock: SystemClock())
            func record(_ email: String, verified: Bool = false) -> PasswordImportRecord {
                PasswordImportRecord(email: email, displayName: "User", passwordHash: bcrypt, emailVerified: verified)
            }
            let progress = ProgressRecorder()
            #expect(
                try await useCase.execute(
                    [record("a@example.com", verified: true), record("b@example.com")],
                    progress: { progress.record($0) }) == 2)
            #expect(progress.values.last == 2)
            await #expect(throws: PasswordImportError.duplicateEmail(line: nil)) {
                _ = try await useCase.execute([record("c@example.com"), record("A@example.com")], progress: { _ in })
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 2)
            #expect(try await repos.count("SELECT count(*) FROM password_credentials") == 2)
            #expect(try await repos.count("SELECT count(*) FROM account_emails WHERE verified_at IS NOT NULL") == 1)
            #expect(
                try await repos.count(
                    "SELECT count(*) FROM account_events WHERE kind = 'account.created' AND method = 'import'") == 2)
            let imported = try #require(try await repos.accounts.passwordAccount(normalizedEmail: "b@example.com"))
            #expect(imported.credential.passwordHash == bcrypt)
        }
    }
}

/// Collects progress callbacks from another thread.
final class ProgressRecorder: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var recorded: [Int] = []
    func record(_ value: Int) { lock.withLock { recorded.append(value) } }
    var values: [Int] { lock.withLock { recorded } }
}
