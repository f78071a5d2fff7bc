package import Foundation
package import PasskeyDomain

/// Makes the activity-log entry a use case hands to the repository with its change (spec v3,
/// "Account activity"): the repository writes it in the same transaction, so neither exists
/// without the other. IDs come from the application's CSPRNG, like every other ID.
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

    private func makeID() -> AccountEventID {
        AccountEventID(random?.uuid() ?? UUID())
    }

    /// The event of `activity` on `accountID` at `date` from `origin`; `sessionID` is the session
    /// a sign-in created or the one that made the change.
    package func event(
        _ activity: AccountActivity, accountID: AccountID, sessionID: SessionID?, at date: Date,
        from origin: RequestOrigin
    ) -> AccountEvent {
        AccountEvent(
            id: makeID(), accountID: accountID, activity: activity, occurredAt: date,
            clientAddress: origin.clientAddress, userAgent: origin.userAgent, sessionID: sessionID)
    }

    /// The event of `activity` for an account the repository finds (by email address).
    package func pending(_ activity: AccountActivity, sessionID: SessionID?, at date: Date, from origin: RequestOrigin)
        -> PendingAccountEvent
    {
        PendingAccountEvent(id: makeID(), activity: activity, occurredAt: date, origin: origin, sessionID: sessionID)
    }
}
