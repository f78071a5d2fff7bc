package import PasskeyLibpq

/// Why `migrate` could not bring the schema up to date.
package enum MigrationError: Error, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case badFileName(String)
    case duplicateVersion(Int)
    /// An applied migration's file was edited afterwards.
    case checksumMismatch(version: Int, name: String)
    /// The database knows a migration this build does not have (a newer release ran).
    case unknownAppliedVersion(Int)
    case failed(name: String, PostgresError)
    case database(PostgresError)

    package var description: String {
        switch self {
        case .unreadable(let path): "cannot read migrations at \(path)"
        case .badFileName(let name): "migration file \(name) is not named NNNN_description.sql"
        case .duplicateVersion(let version): "two migration files have version \(version)"
        case .checksumMismatch(let version, let name):
            "migration \(version) (\(name)) was edited after it was applied (checksum mismatch)"
        case .unknownAppliedVersion(let version):
            "the database has migration \(version), which this build does not know"
        case .failed(let name, let error): "migration \(name) failed: \(error.diagnostic)"
        case .database(let error): "database error: \(error.diagnostic)"
        }
    }
}
