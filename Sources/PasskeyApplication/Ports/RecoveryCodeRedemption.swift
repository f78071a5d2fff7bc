package import PasskeyDomain

/// What one attempt to consume a recovery code found, decided by the one statement that tries
/// to consume it.
package enum RecoveryCodeRedemption: Hashable, Sendable {
    /// This attempt consumed the code; the session is stored.
    case redeemed(account: Account, source: RecoveryCodeSource)
    /// The code exists, is the account's, and another attempt consumed it within the recent-use
    /// window: a double submit that lost the race to the winner. Nothing changed.
    case usedJustNow
    /// No such code: unknown email, wrong, expired, or used longer ago than the window. Nothing
    /// changed.
    case notFound
    /// (v4) The right, unused code of an account the support desk locked. Nothing changed.
    case accountLocked
}
