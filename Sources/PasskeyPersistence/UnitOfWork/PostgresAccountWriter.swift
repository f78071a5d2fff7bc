internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `AccountWriter` in SQL: `accounts`, `account_emails`, `password_credentials`.
struct PostgresAccountWriter: AccountWriter {
    let transaction: PostgresTransaction

    /// The columns of a `AccountSnapshot`, from `accounts a JOIN account_emails e`.
    private static let lockedColumns: StaticString = """
        a.id AS account_id, a.display_name AS account_display_name, a.created_at AS account_created_at,
        e.email, e.language, e.verified_at IS NOT NULL AS email_verified,
        EXISTS (SELECT 1 FROM password_credentials p WHERE p.account_id = a.id) AS has_password,
        a.locked_at, a.lock_reason
        """

    func lockAgainstSignIns(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try await transaction.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: Self.lockedColumns)
                FROM accounts a JOIN account_emails e ON e.account_id = a.id
                WHERE a.id = \(id.uuid) FOR UPDATE OF a FOR NO KEY UPDATE OF e
                """)
            return try result.first.map { row throws(PostgresError) in try Self.decode(row) }
        }
    }

    func setLock(_ id: AccountID, to lock: AccountLock?) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE accounts SET locked_at = \(lock?.lockedAt), lock_reason = \(lock?.reason.value)
                WHERE id = \(id.uuid)
                """)
        }
    }

    func isLockedForSignIn(_ id: AccountID) async throws(RepositoryError) -> Bool {
        // No condition on `locked_at` in the WHERE: a row the snapshot filters out is never
        // locked, so `... AND locked_at IS NOT NULL FOR KEY SHARE` skipped a lock being written
        // instead of waiting for it. The row is locked first, then its newest `locked_at` read.
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                "SELECT locked_at IS NOT NULL AS locked FROM accounts WHERE id = \(id.uuid) FOR KEY SHARE"
            ).first.map { row throws(PostgresError) in try row.decode(Bool.self, column: "locked") } ?? false
        }
    }

    func lock(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try await transaction.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: Self.lockedColumns)
                FROM accounts a JOIN account_emails e ON e.account_id = a.id
                WHERE a.id = \(id.uuid) FOR NO KEY UPDATE OF a, e
                """)
            return try result.first.map { row throws(PostgresError) in try Self.decode(row) }
        }
    }

    func read(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try await transaction.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: Self.lockedColumns)
                FROM accounts a JOIN account_emails e ON e.account_id = a.id
                WHERE a.id = \(id.uuid)
                """)
            return try result.first.map { row throws(PostgresError) in try Self.decode(row) }
        }
    }

    func lock(normalizedEmail: String) async throws(RepositoryError) -> AccountSnapshot? {
        try await transaction.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT \(unescaped: Self.lockedColumns)
                FROM account_emails e JOIN accounts a ON a.id = e.account_id
                WHERE e.normalized_email = \(normalizedEmail) FOR NO KEY UPDATE OF a, e
                """)
            return try result.first.map { row throws(PostgresError) in try Self.decode(row) }
        }
    }

    static func decode(_ row: PostgresRow) throws(PostgresError) -> AccountSnapshot {
        guard let email = EmailAddress(try row.decode(column: "email")),
            let language = MailLanguage(rawValue: try row.decode(column: "language"))
        else { throw PostgresError(kind: .decoding, diagnostic: "account_emails.email or language out of range") }
        var lock: AccountLock?
        if let lockedAt = try row.decode(Date?.self, column: "locked_at") {
            guard let reason = LockReason(stored: try row.decode(String.self, column: "lock_reason")) else {
                throw PostgresError(kind: .decoding, column: "lock_reason", diagnostic: "not a lock reason")
            }
            lock = AccountLock(lockedAt: lockedAt, reason: reason)
        }
        return AccountSnapshot(
            account: try AccountRow.decode(row), email: email, emailVerified: try row.decode(column: "email_verified"),
            language: language, hasPassword: try row.decode(column: "has_password"), lock: lock)
    }

    func find(normalizedEmail: String) async throws(RepositoryError) -> AccountID? {
        try await transaction.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                "SELECT account_id FROM account_emails WHERE normalized_email = \(normalizedEmail)")
            return try result.first.map { row throws(PostgresError) in AccountID(try row.decode(column: "account_id")) }
        }
    }

    func isTaken(_ email: EmailAddress, byOtherThan accountID: AccountID) async throws(RepositoryError) -> Bool {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                SELECT 1 FROM account_emails
                WHERE normalized_email = \(email.normalized) AND account_id <> \(accountID.uuid)
                """
            ).first != nil
        }
    }

    func insert(_ account: Account) async throws(RepositoryError) {
        transaction.noteCreated(account.id)
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO accounts (id, display_name, created_at)
                VALUES (\(account.id.uuid), \(account.displayName.value), \(account.createdAt))
                """)
        }
    }

    func insert(_ email: AccountEmail) async throws(RepositoryError) {
        let inserted = try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO account_emails (id, account_id, email, normalized_email, created_at, language, verified_at)
                SELECT \(email.id), a.id, \(email.email.value), \(email.email.normalized), a.created_at,
                       \(email.language.rawValue), \(email.verifiedAt)
                FROM accounts a WHERE a.id = \(email.accountID.uuid)
                """
            ).affectedRows
        }
        // The address takes the account's creation time, so it is copied from the row: no row,
        // no account (deleted since the caller read it).
        guard inserted == 1 else { throw .accountGone }
    }

    func markEmailVerified(_ id: AccountID, at date: Date) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                "UPDATE account_emails SET verified_at = coalesce(verified_at, \(date)) WHERE account_id = \(id.uuid)")
        }
    }

    func changeEmail(_ id: AccountID, to email: EmailAddress, verifiedAt date: Date) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE account_emails
                SET email = \(email.value), normalized_email = \(email.normalized), verified_at = \(date)
                WHERE account_id = \(id.uuid)
                """)
        }
    }

    func setPassword(_ id: AccountID, hash: String, at date: Date) async throws(RepositoryError) {
        try await transaction.noteCredentialChange(id)
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO password_credentials (account_id, password_hash, created_at, updated_at)
                VALUES (\(id.uuid), \(hash), \(date), \(date))
                ON CONFLICT (account_id) DO UPDATE SET password_hash = EXCLUDED.password_hash,
                                                       updated_at = EXCLUDED.updated_at
                """)
        }
    }

    func deletePassword(_ id: AccountID) async throws(RepositoryError) -> Bool {
        try await transaction.noteCredentialChange(id)
        return try await transaction.run { connection async throws(PostgresError) in
            try await connection.query("DELETE FROM password_credentials WHERE account_id = \(id.uuid)").affectedRows
                == 1
        }
    }

    func delete(_ id: AccountID) async throws(RepositoryError) -> AccountSnapshot? {
        try await transaction.run { connection async throws(PostgresError) in
            // Lock order: the rows a sign-in updates before the account. A sign-in locks its
            // credential (the passkey's counter, the recovery code it consumes, a rehashed
            // password) and then, inserting its session, the account (the foreign key's KEY
            // SHARE). Locking the account first and cascading to those rows afterwards deadlocked
            // with it (SQLSTATE 40P01, seen as a 500 in CeremonyAbuseTests); in this order a racing
            // sign-in either finishes first or finds its row gone.
            try await connection.query("SELECT 1 FROM passkey_credentials WHERE account_id = \(id.uuid) FOR UPDATE")
            try await connection.query("SELECT 1 FROM recovery_codes WHERE account_id = \(id.uuid) FOR UPDATE")
            try await connection.query("SELECT 1 FROM password_credentials WHERE account_id = \(id.uuid) FOR UPDATE")
            // Then the account, so a concurrent sign-in or registration waits or fails.
            let found = try await connection.query(
                """
                SELECT \(unescaped: Self.lockedColumns), e.normalized_email
                FROM accounts a JOIN account_emails e ON e.account_id = a.id
                WHERE a.id = \(id.uuid) FOR UPDATE OF a
                """)
            guard let row = found.first else { return nil }
            let account = try Self.decode(row)
            let normalizedEmail = try row.decode(String.self, column: "normalized_email")
            // Not referenced by foreign key: the completed passkey-account registration (it holds
            // the email and display name) and the attempts counted against the email.
            try await connection.query(
                "DELETE FROM passkey_account_registrations WHERE prospective_account_id = \(id.uuid)")
            try await connection.query("DELETE FROM password_failures WHERE normalized_email = \(normalizedEmail)")
            // Everything else goes by ON DELETE CASCADE: email, password, passkeys, sessions,
            // recovery codes, codes, events, registration challenges.
            try await connection.query("DELETE FROM accounts WHERE id = \(id.uuid)")
            return account
        }
    }
}
