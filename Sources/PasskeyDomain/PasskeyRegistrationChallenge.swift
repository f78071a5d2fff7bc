package import Foundation

/// How a passkey is being added to a signed-in account.
package enum RegistrationMode: String, Hashable, Sendable {
    /// The user pressed a button; UP (and UV per policy) are required.
    case modal
    /// Automatic Passkey Upgrade (conditional create); UP = 0 and UV = 0 are accepted.
    case conditional
}

/// A challenge issued to add a passkey to an existing account; consumed once.
package struct PasskeyRegistrationChallenge: Hashable, Sendable {
    package let id: ChallengeID
    package let accountID: AccountID
    package let challenge: Challenge
    package let mode: RegistrationMode
    package let expiresAt: Date
    package var consumedAt: Date?

    package init(
        id: ChallengeID = ChallengeID(), accountID: AccountID, challenge: Challenge, mode: RegistrationMode,
        expiresAt: Date, consumedAt: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.challenge = challenge
        self.mode = mode
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}
