internal import Foundation
internal import PasskeyDomain
internal import PasskeyLibpq

/// The columns of `passkey_credentials`, selected as `\(unescaped: PasskeyCredentialRow.columns)`
/// from `passkey_credentials pc` and decoded by name. The columns other tables also have
/// (`account_id`, `name`, `created_at`, `last_used_at`) are aliased with a `credential_` prefix,
/// so the names stay unique when the select joins accounts, challenges or sessions.
enum PasskeyCredentialRow {
    /// Use as `SELECT \(unescaped: PasskeyCredentialRow.columns) FROM passkey_credentials pc`.
    static let columns: StaticString = """
        pc.credential_id, pc.account_id AS credential_account_id, pc.public_key, pc.algorithm, pc.sign_count,
        pc.aaguid, pc.transports, pc.backup_eligible, pc.backup_state,
        pc.attestation_format, pc.attestation_type, pc.resident_key, pc.user_verified,
        pc.name AS credential_name, pc.created_at AS credential_created_at,
        pc.last_used_at AS credential_last_used_at
        """

    static func decode(_ row: PostgresRow) throws(PostgresError) -> PasskeyCredential {
        try credential(row, id: try row.decode([UInt8].self, column: "credential_id"))
    }

    /// The credential, or nil when the row has none (`credential_id` is NULL, as in a `LEFT JOIN`).
    static func decodeIfPresent(_ row: PostgresRow) throws(PostgresError) -> PasskeyCredential? {
        guard let id = try row.decode([UInt8]?.self, column: "credential_id") else { return nil }
        return try credential(row, id: id)
    }

    private static func credential(_ row: PostgresRow, id idBytes: [UInt8]) throws(PostgresError)
        -> PasskeyCredential
    {
        guard let id = CredentialID(bytes: idBytes) else { throw outOfRange("credential_id") }
        guard let aaguid = AAGUID(bytes: try row.decode(UUID.self, column: "aaguid").uuidBytes) else {
            throw outOfRange("aaguid")
        }
        guard let attestationType = AttestationType(rawValue: try row.decode(column: "attestation_type")) else {
            throw outOfRange("attestation_type")
        }
        // Empty transports are dropped, as they were when the array was read through
        // array_to_string and split on commas.
        let transports = try row.decode([String].self, column: "transports").filter { !$0.isEmpty }
        return PasskeyCredential(
            id: id,
            accountID: AccountID(try row.decode(column: "credential_account_id")),
            publicKey: try row.decode(column: "public_key"),
            algorithm: try row.decode(column: "algorithm"),
            signCount: try row.decode(column: "sign_count"),
            aaguid: aaguid,
            transports: transports,
            backupEligible: try row.decode(column: "backup_eligible"),
            backupState: try row.decode(column: "backup_state"),
            attestationFormat: try row.decode(column: "attestation_format"),
            attestationType: attestationType,
            residentKey: try row.decode(column: "resident_key"),
            userVerified: try row.decode(column: "user_verified"),
            name: PasskeyName(trusted: try row.decode(column: "credential_name")),
            createdAt: try row.decode(column: "credential_created_at"),
            lastUsedAt: try row.decode(column: "credential_last_used_at"))
    }

    private static func outOfRange(_ column: String) -> PostgresError {
        PostgresError(kind: .decoding, column: column, diagnostic: "passkey_credentials.\(column) out of range")
    }

    /// Inserts a credential (one statement).
    static func insert(_ c: PasskeyCredential, on connection: PostgresConnection) async throws(PostgresError) {
        try await connection.query(
            """
            INSERT INTO passkey_credentials (
                credential_id, account_id, public_key, algorithm, sign_count, aaguid, transports,
                backup_eligible, backup_state, attestation_format, attestation_type, resident_key,
                user_verified, name, created_at, last_used_at)
            VALUES (\(bytes: c.id.bytes), \(c.accountID.uuid), \(bytes: c.publicKey), \(c.algorithm),
                \(Int64(c.signCount)), \(c.aaguid.uuid), string_to_array(\(c.transports.joined(separator: ",")), ','),
                \(c.backupEligible), \(c.backupState), \(c.attestationFormat), \(c.attestationType.rawValue),
                \(c.residentKey), \(c.userVerified), \(c.name.value), \(c.createdAt), \(c.lastUsedAt))
            """)
    }
}

extension UUID {
    var uuidBytes: [UInt8] {
        let u = uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }
}

extension AAGUID {
    var uuid: UUID {
        let b = bytes
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
}
