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
}
