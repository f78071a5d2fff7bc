package import Foundation
package import PasskeyDomain

/// Makes the activity-log entry a use case hands to the repository with its change (spec v3,
/// "Account activity"): the repository writes it in the same transaction, so neither exists
/// without the other. IDs come from the application's CSPRNG, like every other ID.
package struct AccountEventMaker: Sendable {
    let random: any RandomGenerator

    package init(random: any RandomGenerator) {
        self.random = random
    }

    /// The event of `activity` on `accountID` at `date` from `origin`; `sessionID` is the session
    /// a sign-in created or the one that made the change.
    package func event(
        _ activity: AccountActivity, accountID: AccountID, sessionID: SessionID?, at date: Date,
        from origin: RequestOrigin
    ) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(random.uuid()), accountID: accountID, activity: activity, occurredAt: date,
            clientAddress: origin.clientAddress, userAgent: origin.userAgent, sessionID: sessionID)
    }
}
