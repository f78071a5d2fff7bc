package import Foundation
package import PasskeyDomain

/// An activity-log entry whose account is not known yet when the use case makes it: a sign-in
/// or failed sign-in by email address (password, recovery code, mailed code), where the account
/// comes out of the repository's own statement. The repository turns it into an `AccountEvent`
/// for the account it found and writes it in the same transaction; for an unknown address it
/// writes nothing.
package struct PendingAccountEvent: Hashable, Sendable {
    package let id: AccountEventID
    package let activity: AccountActivity
    package let occurredAt: Date
    package let origin: RequestOrigin
    package let sessionID: SessionID?

    package init(
        id: AccountEventID, activity: AccountActivity, occurredAt: Date, origin: RequestOrigin, sessionID: SessionID?
    ) {
        self.id = id
        self.activity = activity
        self.occurredAt = occurredAt
        self.origin = origin
        self.sessionID = sessionID
    }

    /// The event of `accountID`.
    package func event(accountID: AccountID) -> AccountEvent {
        AccountEvent(
            id: id, accountID: accountID, activity: activity, occurredAt: occurredAt,
            clientAddress: origin.clientAddress, userAgent: origin.userAgent, sessionID: sessionID)
    }
}
