package import PasskeyDomain

/// One page of an account's activity, newest first; `next` continues after its last event, nil
/// on the last page.
package struct ActivityPage: Hashable, Sendable {
    package let events: [AccountEvent]
    package let next: ActivityCursor?

    package init(events: [AccountEvent], next: ActivityCursor?) {
        self.events = events
        self.next = next
    }

    /// Reads a page of at most `limit` events from `events`, asking it for one more to know
    /// whether a next page exists.
    static func read(
        limit: Int, from events: any AccountEventRepository, of accountID: AccountID, before: ActivityCursor?
    ) async throws(RepositoryError) -> ActivityPage {
        let fetched = try await events.events(accountID: accountID, before: before, limit: limit + 1)
        let page = Array(fetched.prefix(limit))
        return ActivityPage(
            events: page, next: fetched.count > limit ? page.last.map(ActivityCursor.init(after:)) : nil)
    }
}
