internal import Foundation
internal import PasskeyDomain
internal import PasskeyLibpq

/// The columns of `passkey_credentials` in the order `decode` reads them, and the decoder.
enum PasskeyCredentialRow {
    /// Use as `SELECT \(columns) FROM passkey_credentials pc`.
    static let columns: StaticString = """
        pc.credential_id, pc.account_id, pc.public_key, pc.algorithm, pc.sign_count, pc.aaguid,
        array_to_string(pc.transports, ','), pc.backup_eligible, pc.backup_state, pc.attestation_format,
        pc.attestation_type, pc.resident_key, pc.user_verified, pc.name, pc.created_at, pc.last_used_at
        """

    /// Reads a credential starting at column `offset`.
    static func decode(_ row: PostgresRow, offset: Int = 0) throws(PostgresError) -> PasskeyCredential {
        let o = offset
        guard let id = CredentialID(bytes: try row.bytes(o)),
            let aaguid = AAGUID(bytes: Array(try row.uuid(o + 5).uuidBytes)),
            let signCount = UInt32(exactly: try row.int(o + 4)),
            let attestationType = AttestationType(rawValue: try row.string(o + 10))
        else {
            throw PostgresError(kind: .decoding, diagnostic: "passkey_credentials row out of range")
        }
        let transports = try row.string(o + 6).split(separator: ",").map(String.init)
        return PasskeyCredential(
            id: id,
            accountID: AccountID(try row.uuid(o + 1)),
            publicKey: try row.bytes(o + 2),
            algorithm: try row.int(o + 3),
            signCount: signCount,
            aaguid: aaguid,
            transports: transports,
            backupEligible: try row.bool(o + 7),
            backupState: try row.bool(o + 8),
            attestationFormat: try row.string(o + 9),
            attestationType: attestationType,
            residentKey: try row.optionalBool(o + 11),
            userVerified: try row.bool(o + 12),
            name: PasskeyName(trusted: try row.string(o + 13)),
            createdAt: try row.date(o + 14),
            lastUsedAt: try row.optionalDate(o + 15))
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
