internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyLibpq

/// `PasskeyWriter` in SQL: `passkey_credentials`.
struct PostgresPasskeyWriter: PasskeyWriter {
    let transaction: PostgresTransaction

    func list(_ accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential] {
        try await transaction.run { connection async throws(PostgresError) in
            try await PostgresPasskeyCredentialRepository.credentials(accountID: accountID, on: connection)
        }
    }

    func insert(_ credential: PasskeyCredential) async throws(RepositoryError) {
        try await transaction.noteCredentialChange(credential.accountID)
        try await transaction.run { connection async throws(PostgresError) in
            try await PasskeyCredentialRow.insert(credential, on: connection)
        }
    }

    func rename(_ id: CredentialID, of accountID: AccountID, to name: PasskeyName)
        async throws(RepositoryError) -> PasskeyCredential?
    {
        try await transaction.run { connection async throws(PostgresError) in
            let result = try await connection.query(
                """
                UPDATE passkey_credentials pc SET name = \(name.value)
                WHERE pc.credential_id = \(bytes: id.bytes) AND pc.account_id = \(accountID.uuid)
                RETURNING \(unescaped: PasskeyCredentialRow.columns)
                """)
            return try result.first.map { row throws(PostgresError) in try PasskeyCredentialRow.decode(row) }
        }
    }

    func delete(_ id: CredentialID, of accountID: AccountID) async throws(RepositoryError) -> Bool {
        try await transaction.noteCredentialChange(accountID)
        return try await transaction.run { connection async throws(PostgresError) in
            try await connection.query(
                """
                DELETE FROM passkey_credentials
                WHERE credential_id = \(bytes: id.bytes) AND account_id = \(accountID.uuid)
                """
            ).affectedRows == 1
        }
    }

    func deleteAll(of accountID: AccountID) async throws(RepositoryError) {
        try await transaction.noteCredentialChange(accountID)
        try await transaction.run { connection async throws(PostgresError) in
            try await connection.query("DELETE FROM passkey_credentials WHERE account_id = \(accountID.uuid)")
        }
    }
}
