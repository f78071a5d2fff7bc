package import PasskeyDomain

/// (v4) The event log (`webhook_events`), as `GET /v1/operator/events` pages through it.
package protocol EventLogRepository: Sendable {
    /// Up to `limit` events after `cursor` (from the first when nil), in the log's order. Only
    /// events whose writing transaction is older than every transaction still running are read,
    /// so an event that is still being written (and may commit after later-numbered ones) is
    /// never passed by: a later page, from the cursor this one ends on, still finds it.
    func events(after cursor: EventLogCursor?, limit: Int) async throws(RepositoryError) -> [LoggedEvent]
}
