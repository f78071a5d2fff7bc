package import PasskeyDomain

/// Why the events API refused.
package enum EventFeedError: Error, Hashable, Sendable {
    /// `limit` is not a whole number from 1 to 1000.
    case invalidLimit
    case unavailable
    case internalFailure(cause: FailureCause)
}

extension EventFeedError: RepositoryBackedError {
    /// The feed writes nothing, so no write can race a deletion.
    package static var accountGone: Self { .internalFailure(cause: .unexpectedAccountGone) }
}

/// A page of the event log and where the next one starts.
package struct EventFeedPage: Hashable, Sendable {
    package let events: [LoggedEvent]
    /// The `after` of the following page: the last event's place; on an empty page the `after`
    /// that was given (a feed is polled from there); nil only while no event was ever seen.
    package let next: EventLogCursor?
}

/// `GET /v1/operator/events?after=&limit=` (spec v4, "Webhooks"): every account event once, oldest
/// first in the log's order, from any cursor, while instances write concurrently (the rule is the
/// repository's: docs/webhooks.md, "The events API").
package struct EventFeedUseCase: Sendable {
    let log: any EventLogRepository

    package static let limits = 1...1000
    package static let defaultLimit = 100

    package init(log: any EventLogRepository) { self.log = log }

    package func execute(after cursor: EventLogCursor?, limit: Int = defaultLimit) async throws(EventFeedError)
        -> EventFeedPage
    {
        guard Self.limits.contains(limit) else { throw .invalidLimit }
        let log = log
        let events = try await EventFeedError.catching { () async throws(RepositoryError) in
            try await log.events(after: cursor, limit: limit)
        }
        return EventFeedPage(events: events, next: events.last?.cursor ?? cursor)
    }
}
