internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `AccountRegistrationWriter` in SQL: `passkey_account_registrations`.
struct PostgresAccountRegistrationWriter: AccountRegistrationWriter {
    let transaction: PostgresTransaction

    func complete(_ id: RegistrationID, at date: Date) async throws(RepositoryError) -> Bool {
        try await transaction.run { connection async throws(PostgresError) in
            // The row lock taken here serialises concurrent finishes of one registration;
            // a later one sees completed_at set once the first commits.
            try await connection.query(
                """
                UPDATE passkey_account_registrations SET completed_at = \(date)
                WHERE id = \(id.uuid) AND completed_at IS NULL AND expires_at > \(date)
                  AND failed_finishes < \(PasskeyAccountRegistration.maximumFailedFinishes)
                """
            ).affectedRows == 1
        }
    }
}
