package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import PasskeyLibpq

extension PostgresEmailCodeRepository {
    package func signIn(
        normalizedEmail: String, now: Date, maximumTries: Int,
        matches: @escaping @Sendable (UUID, [UInt8]) -> Bool,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession,
        notice: PendingNotice?, events: SignInEvents, reclaimed: PendingAccountEvent
    ) async throws(RepositoryError) -> EmailSignInRedemption {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // One locking statement finds the account of the address and its live code (or none).
            let found = try await connection.query(
                """
                SELECT \(unescaped: AccountRow.columns), e.verified_at IS NOT NULL AS verified,
                       c.id AS code_id, c.code_digest, c.email AS code_email, c.failed_tries
                FROM account_emails e JOIN accounts a ON a.id = e.account_id
                JOIN email_codes c ON c.account_id = e.account_id
                WHERE e.normalized_email = \(normalizedEmail) AND c.purpose = \(EmailCodePurpose.signIn.rawValue)
                  AND c.used_at IS NULL AND c.voided_at IS NULL AND c.expires_at > \(now)
                ORDER BY c.created_at DESC LIMIT 1
                FOR NO KEY UPDATE OF a, e FOR UPDATE OF c
                """)
            guard let row = found.first else {
                // No live code: a failed sign-in of the account if there is one (one statement
                // that finds it by its address; an unknown address writes nothing).
                try await PostgresAccountEvents.insert(
                    events.failure, forNormalizedEmail: normalizedEmail, on: connection)
                return .invalid
            }
            let account = try AccountRow.decode(row)
            let code = LiveEmailCode(
                id: try row.decode(column: "code_id"), digest: try row.decode(column: "code_digest"),
                email: try row.decode(column: "code_email"), failedTries: try row.decode(column: "failed_tries"))
            guard matches(code.id, code.digest) else {
                try await Self.countWrongTry(code, maximumTries: maximumTries, on: connection)
                try await PostgresAccountEvents.insert(events.failure.event(accountID: account.id), on: connection)
                return .invalid
            }
            try await Self.markUsed(code, now: now, on: connection)
            let wasVerified: Bool = try row.decode(column: "verified")
            let session = makeSession(account)
            if !wasVerified {
                try await Self.takeBack(accountID: account.id, keeping: session, now: now, on: connection)
                try await Self.recordReclaimed(reclaimed.event(accountID: account.id), on: connection)
            }
            try await connection.query(
                """
                UPDATE account_emails SET verified_at = coalesce(verified_at, \(now))
                WHERE account_id = \(account.id.uuid)
                """)
            try await PostgresSessionRepository.insert(session, on: connection)
            try await PostgresAccountEvents.insert(events.success.event(accountID: account.id), on: connection)
            if let notice {
                try await PostgresMailOutbox.enqueueNotice(accountID: account.id, on: connection, compose: notice.mail)
            }
            return .signedIn(account: account, reclaimed: !wasVerified)
        }
    }

    /// Taking a pre-registered account back: whoever set the account up without owning the
    /// address loses its password, passkeys and recovery codes, and every session ends.
    static func takeBack(
        accountID: AccountID, keeping: AuthenticationSession, now: Date, on connection: PostgresConnection
    )
        async throws(PostgresError)
    {
        let id = accountID.uuid
        try await connection.query("DELETE FROM password_credentials WHERE account_id = \(id)")
        try await connection.query("DELETE FROM passkey_credentials WHERE account_id = \(id)")
        try await connection.query("DELETE FROM recovery_codes WHERE account_id = \(id)")
        try await connection.query(
            """
            UPDATE authentication_sessions SET revoked_at = \(now)
            WHERE account_id = \(id) AND id <> \(keeping.id.uuid) AND revoked_at IS NULL
            """)
    }

    /// Writes the account event `account.reclaimed`, in the transaction that takes the account back.
    static func recordReclaimed(_ event: AccountEvent, on connection: PostgresConnection) async throws(PostgresError) {
        try await PostgresAccountEvents.insert(event, on: connection)
    }
}
