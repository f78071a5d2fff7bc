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
}
