package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import PasskeyLibpq

/// "New account with a passkey" ceremonies in PostgreSQL.
package struct PostgresAccountRegistrationRepository: AccountRegistrationRepository {
    let pool: PostgresConnectionPool

    package init(pool: PostgresConnectionPool) { self.pool = pool }

    static let maximumFailedFinishes = PasskeyAccountRegistration.maximumFailedFinishes

    package func saveAccountRegistration(_ r: PasskeyAccountRegistration) async throws(RepositoryError) {
        try await pool.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                INSERT INTO passkey_account_registrations
                    (id, prospective_account_id, email, display_name, challenge, expires_at, completed_at)
                VALUES (\(r.id.uuid), \(r.prospectiveAccountID.uuid), \(r.email?.value), \(r.displayName?.value),
                        \(bytes: r.challenge.bytes), \(r.expiresAt), \(r.completedAt))
                """)
        }
    }

    package func usableAccountRegistration(id: RegistrationID, now: Date) async throws(RepositoryError)
        -> PasskeyAccountRegistration?
    {
        try await pool.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                SELECT prospective_account_id, email, display_name, challenge, expires_at
                FROM passkey_account_registrations
                WHERE id = \(id.uuid) AND completed_at IS NULL AND expires_at > \(now)
                  AND failed_finishes < \(Self.maximumFailedFinishes)
                """)
            guard let row = result.first else { return nil }
            return PasskeyAccountRegistration(
                id: id, prospectiveAccountID: AccountID(try row.decode(column: "prospective_account_id")),
                email: try row.decode(String?.self, column: "email").flatMap(EmailAddress.init),
                displayName: try row.decode(String?.self, column: "display_name").flatMap(DisplayName.init),
                challenge: Challenge(bytes: try row.decode(column: "challenge")),
                expiresAt: try row.decode(column: "expires_at"))
        }
    }

    package func recordFailedFinish(id: RegistrationID, now: Date) async throws(RepositoryError) -> Bool {
        try await pool.run { connection async throws(PostgresError) in
            // One conditional UPDATE: concurrent failures queue on the row lock and each re-reads
            // the count, so at most `maximumFailedFinishes` of them ever see a row.
            try await connection.query(
                """
                UPDATE passkey_account_registrations SET failed_finishes = failed_finishes + 1
                WHERE id = \(id.uuid) AND completed_at IS NULL AND expires_at > \(now)
                  AND failed_finishes < \(Self.maximumFailedFinishes)
                """
            ).affectedRows == 1
        }
    }

    package func completeAccountRegistration(
        id: RegistrationID, account: Account, email: AccountEmail, credential: PasskeyCredential,
        session: AuthenticationSession, now: Date, verification: EmailCodeMail?, events: [AccountEvent]
    ) async throws(RepositoryError) -> AccountRegistrationCompletion {
        try await pool.runTransaction { connection async throws(PostgresError) in
            // The row lock taken here serialises concurrent finishes of one registration;
            // a later one sees completed_at set once the first commits.
            let claimed = try await connection.query(
                """
                UPDATE passkey_account_registrations SET completed_at = \(now)
                WHERE id = \(id.uuid) AND completed_at IS NULL AND expires_at > \(now)
                  AND failed_finishes < \(Self.maximumFailedFinishes)
                """)
            guard claimed.affectedRows == 1 else { return .unavailable }
            // The passkey before the email (contract v3): a registered credential answers
            // credential-exists whatever the email, so reusing one credential cannot test addresses.
            try await connection.query(
                """
                INSERT INTO accounts (id, display_name, created_at)
                VALUES (\(account.id.uuid), \(account.displayName.value), \(account.createdAt))
                """)
            try await PasskeyCredentialRow.insert(credential, on: connection)
            try await connection.query(
                """
                INSERT INTO account_emails (id, account_id, email, normalized_email, created_at, language, verified_at)
                VALUES (\(email.id), \(account.id.uuid), \(email.email.value), \(email.email.normalized),
                        \(account.createdAt), \(email.language.rawValue), \(email.verifiedAt))
                """)
            try await PostgresSessionRepository.insert(session, on: connection)
            if let verification {
                try await PostgresEmailCodeRepository.store(
                    verification, accountID: account.id, to: email.email, on: connection)
            }
            try await PostgresAccountEvents.insert(events, on: connection)
            return .completed
        }
    }
}
