package import Foundation
internal import PasskeyLibpq
internal import Synchronization

/// "No secret ever appears in an event" (spec v3, "Account activity"), checked over the whole
/// suite: while `PASSKEY_TEST_AUDIT_DIR` is set (`scripts/test.sh` sets it), the test clients
/// record every password, token, recovery code and mailed code they send or receive, and every
/// throwaway database's `account_events` rows are dumped (all columns, as JSON) before it is
/// dropped. `scripts/check-event-secrets.py` then fails the run when either list is empty or any
/// secret (or its base64url or hex form) occurs in an event. Unset: nothing is written.
package enum SecretAudit {
    /// The folder of this run's lists; nil when the audit is off.
    package static let directory: URL? = ProcessInfo.processInfo.environment["PASSKEY_TEST_AUDIT_DIR"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true)
    }

    private static let lock = Mutex(())

    /// Records a secret the suite used (one line; a secret with a line break is split in lines).
    package static func record(secret: String) {
        guard !secret.isEmpty else { return }
        append(secret.split(whereSeparator: \.isNewline).map(String.init), to: "secrets-\(getpid()).txt")
    }

    /// Dumps the activity log of `conninfo`'s database, one JSON object per row. A database
    /// without the table (the migration tests' empty ones) dumps nothing.
    package static func dumpEvents(conninfo: String) async {
        guard directory != nil else { return }
        let pool = PostgresConnectionPool(configuration: .init(conninfo: conninfo, maximumConnections: 1))
        defer { pool.close() }
        let rows = try? await pool.withConnection { c async throws(PostgresError) -> [String] in
            let exists = try await c.query("SELECT to_regclass('account_events') IS NOT NULL AS present")
            guard try exists.first?.decode(Bool.self, column: "present") == true else { return [] }
            return try await c.query("SELECT row_to_json(e)::text AS row FROM account_events e").rows.map {
                row throws(PostgresError) in try row.decode(String.self, column: "row")
            }
        }
        append(rows ?? [], to: "events-\(getpid()).jsonl")
    }

    private static func append(_ lines: [String], to name: String) {
        guard let directory, !lines.isEmpty else { return }
        let data = Data(lines.map { $0 + "\n" }.joined().utf8)
        lock.withLock { _ in
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: file.path) {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            }
            guard let handle = try? FileHandle(forWritingTo: file) else { return }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: data)
        }
    }
}
