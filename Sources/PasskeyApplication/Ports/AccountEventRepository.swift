package import PasskeyDomain

/// Reading an account's activity log (the events are written through the `UnitOfWork`, in the
/// transactions of the changes).
package protocol AccountEventRepository: Sendable {
    /// At most `limit` of the account's events that come after `before` (all of them without
    /// one), in the page order: `occurredAt` descending, then the event ID descending (by its 16
    /// bytes, as PostgreSQL compares `uuid`). A row that cannot be read back as an `AccountEvent`
    /// is a `.failure`, never skipped.
    func events(accountID: AccountID, before: ActivityCursor?, limit: Int) async throws(RepositoryError)
        -> [AccountEvent]
}
