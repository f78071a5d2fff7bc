/// Housekeeping: removing what has expired.
package protocol MaintenanceRepository: Sendable {
    /// Deletes expired challenges, account registrations and sessions (and sent or abandoned
    /// mails, and (v3) activity past its retention), at most `batchSize` rows per table and
    /// statement, until none is left; returns how many rows went.
    func sweepExpired(batchSize: Int) async throws(RepositoryError) -> Int

    /// True when the database answers and every migration has been applied.
    func isReady() async -> Bool
}
