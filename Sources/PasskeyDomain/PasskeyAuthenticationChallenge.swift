package import Foundation

/// A sign-in challenge; not bound to an account (discoverable credentials), consumed once.
package struct PasskeyAuthenticationChallenge: Hashable, Sendable {
    package let id: ChallengeID
    package let challenge: Challenge
    package let expiresAt: Date
    package var consumedAt: Date?

    package init(id: ChallengeID = ChallengeID(), challenge: Challenge, expiresAt: Date, consumedAt: Date? = nil) {
        self.id = id
        self.challenge = challenge
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}
