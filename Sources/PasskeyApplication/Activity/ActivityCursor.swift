package import Foundation
package import PasskeyDomain

/// Where a page of an account's activity starts: the events strictly older than this one in the
/// page order (`occurred_at` DESC, then the event ID DESC). A keyset, not an offset, so a page
/// stays stable when events arrive between pages. It only bounds the caller's own events: the
/// cursor of another account's event shows that account nothing.
package struct ActivityCursor: Hashable, Sendable {
    /// The event's `occurred_at` in microseconds since 1970, as PostgreSQL stores `timestamptz`.
    /// Any value a client sends is a cursor, also one no event can have (year 300000).
    package let microsecondsSince1970: Int64
    package let eventID: AccountEventID

    package init(microsecondsSince1970: Int64, eventID: AccountEventID) {
        self.microsecondsSince1970 = microsecondsSince1970
        self.eventID = eventID
    }

    package init(occurredAt: Date, eventID: AccountEventID) {
        let micros = (occurredAt.timeIntervalSince1970 * 1_000_000).rounded()
        self.init(
            microsecondsSince1970: Int64(exactly: micros) ?? (micros > 0 ? .max : .min), eventID: eventID)
    }

    /// The cursor that continues after `event`.
    package init(after event: AccountEvent) {
        self.init(occurredAt: event.occurredAt, eventID: event.id)
    }

    package var occurredAt: Date {
        Date(timeIntervalSince1970: Double(microsecondsSince1970) / 1_000_000)
    }

    /// True when `event` comes after this cursor in the page order (is older, or as old with a
    /// smaller ID): what `(occurred_at, id) < (cursor)` selects.
    package func precedes(_ event: AccountEvent) -> Bool {
        let micros = ActivityCursor(after: event).microsecondsSince1970
        if micros != microsecondsSince1970 { return micros < microsecondsSince1970 }
        return Self.bytes(event.id).lexicographicallyPrecedes(Self.bytes(eventID))
    }

    /// PostgreSQL orders `uuid` by its 16 bytes, as `memcmp` does.
    private static func bytes(_ id: AccountEventID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid.uuid) { Array($0) }
    }
}
