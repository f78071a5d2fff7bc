package import Foundation

/// An in-flight "create an account with a passkey" ceremony. The account does not
/// exist yet; the device's passkey is already bound to `prospectiveAccountID`.
package struct PasskeyAccountRegistration: Hashable, Sendable {
    package let id: RegistrationID
    package let prospectiveAccountID: AccountID
    /// Given at start by the form flow; nil for the iOS 26 system sheet.
    package let email: EmailAddress?
    package let displayName: DisplayName?
    package let challenge: Challenge
    package let expiresAt: Date
    package var completedAt: Date?

    /// Failing finishes (any 4xx after the registration was found) it answers before it is used
    /// up (contract v3): it stays open for a retry with another email, but cannot test addresses.
    package static let maximumFailedFinishes = 5

    package init(
        id: RegistrationID = RegistrationID(), prospectiveAccountID: AccountID, email: EmailAddress?,
        displayName: DisplayName?, challenge: Challenge, expiresAt: Date, completedAt: Date? = nil
    ) {
        self.id = id
        self.prospectiveAccountID = prospectiveAccountID
        self.email = email
        self.displayName = displayName
        self.challenge = challenge
        self.expiresAt = expiresAt
        self.completedAt = completedAt
    }
}
