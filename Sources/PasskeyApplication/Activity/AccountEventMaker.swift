package import Foundation
package import PasskeyDomain

/// Makes the activity-log entry a use case hands to the repository with its change (spec v3,
/// "Account activity"): the repository writes it in the same transaction, so neither exists
/// without the other. The random part of each ID comes from the application's CSPRNG, like every
/// other ID.
package struct AccountEventMaker: Sendable {
    let random: (any RandomGenerator)?

    package init(random: any RandomGenerator) {
        self.random = random
    }

    /// IDs from Foundation's `UUID()` (the system CSPRNG): what use cases built without a maker
    /// use (unit tests that do not look at events). The composition root always passes one.
    package init() {
        self.random = nil
    }

    /// A version 7 UUID (RFC 9562): the event's time in milliseconds, then 74 random bits. Events
    /// are written in time order, so their primary key grows at its right edge like a sequence
    /// instead of touching a random page of the index for every sign-in (less WAL, fewer
    /// full-page images); the time it shows is the event's `occurredAt`, which is no secret.
    private func makeID(at date: Date) -> AccountEventID {
        let random = random?.uuid() ?? UUID()
        var b = withUnsafeBytes(of: random.uuid) { Array($0) }
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - UInt64(i)))) }
        b[6] = (b[6] & 0x0F) | 0x70  // version 7
        b[8] = (b[8] & 0x3F) | 0x80  // RFC 9562 variant
        return AccountEventID(
            UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
                )))
    }

    /// The event of `activity` on `accountID` at `date` from `origin`; `sessionID` is the session
    /// a sign-in created or the one that made the change.
    package func event(
        _ activity: AccountActivity, accountID: AccountID, sessionID: SessionID?, at date: Date,
        from origin: RequestOrigin
    ) -> AccountEvent {
        AccountEvent(
            id: makeID(at: date), accountID: accountID, activity: activity, occurredAt: date,
            clientAddress: origin.clientAddress, userAgent: origin.userAgent, sessionID: sessionID)
    }

    /// (v4) The event of an operator's action on `accountID` at `date`: `actor` is the operator,
    /// and there is no client address, user agent or session.
    package func event(_ activity: AccountActivity, accountID: AccountID, at date: Date, by actor: SupportAgentName)
        -> AccountEvent
    {
        AccountEvent(id: makeID(at: date), accountID: accountID, activity: activity, occurredAt: date, actor: actor)
    }

    /// The event of `activity` for an account the repository finds (by email address).
    package func pending(_ activity: AccountActivity, sessionID: SessionID?, at date: Date, from origin: RequestOrigin)
        -> PendingAccountEvent
    {
        PendingAccountEvent(
            id: makeID(at: date), activity: activity, occurredAt: date, origin: origin, sessionID: sessionID)
    }
}
