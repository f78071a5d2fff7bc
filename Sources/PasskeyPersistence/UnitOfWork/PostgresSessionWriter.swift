internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `SessionWriter` in SQL: `authentication_sessions`.
struct PostgresSessionWriter: SessionWriter {
    let transaction: PostgresTransaction

    func insert(_ session: AuthenticationSession) async throws(RepositoryError) {
        try await transaction.run { connection async throws(PostgresError) in
            try await PostgresSessionRepository.insert(session, on: connection)
        }
    }

    func countLive(of accountID: AccountID, at date: Date) async throws(RepositoryError) -> Int {
        try await transaction.run { connection async throws(PostgresError) in
            let count = try await connection.query(
                """
                SELECT count(*) AS live FROM authentication_sessions
                WHERE account_id = \(accountID.uuid) AND revoked_at IS NULL AND expires_at > \(date)
                """
            ).first?.decode(Int64.self, column: "live")
            return Int(count ?? 0)
        }
    }

    func lockLive(_ id: SessionID, at date: Date) async throws(RepositoryError) -> Bool {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                SELECT 1 FROM authentication_sessions
                WHERE id = \(id.uuid) AND revoked_at IS NULL AND expires_at > \(date)
                FOR SHARE
                """
            ).first != nil
        }
    }

    func revoke(_ id: SessionID, of accountID: AccountID, at date: Date) async throws(RepositoryError) -> Bool {
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                UPDATE authentication_sessions SET revoked_at = \(date)
                WHERE id = \(id.uuid) AND account_id = \(accountID.uuid) AND revoked_at IS NULL
                  AND expires_at > \(date)
                """
            ).affectedRows == 1
        }
    }

    func revoke(_ selection: SessionSelection, of accountID: AccountID, except keeping: SessionID?, at date: Date)
        async throws(RepositoryError) -> Int
    {
        try await transaction.run { connection async throws(PostgresError) in
            let method: String? = selection == .password ? AuthenticationMethod.password.rawValue : nil
            let credential: PostgresBytes? =
                if case .signedIn(let id) = selection { PostgresBytes(id.bytes) } else { nil }
            return try await connection.query(
                """
                UPDATE authentication_sessions SET revoked_at = \(date)
                WHERE account_id = \(accountID.uuid) AND revoked_at IS NULL AND expires_at > \(date)
                  AND id IS DISTINCT FROM \(keeping?.uuid)
                  AND (\(method)::text IS NULL OR method = \(method))
                  AND (\(credential)::bytea IS NULL OR credential_id = \(credential))
                """
            ).affectedRows
        }
    }
}
