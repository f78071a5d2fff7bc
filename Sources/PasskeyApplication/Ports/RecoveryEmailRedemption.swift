package import PasskeyDomain

/// What one email sign-in found, decided under the code's row lock.
package enum RecoveryEmailRedemption: Hashable, Sendable {
    /// The code was consumed, the address is verified and the session is stored. `reclaimed`:
    /// the address had never been verified, so the password, passkeys and recovery codes were
    /// deleted and every other session ended in the same transaction.
    case signedIn(account: Account, reclaimed: Bool)
    /// Unknown email, no live code, or a wrong one (its try counted). Nothing else changed.
    case invalid
    /// The code another use consumed just before this one arrived (a double submit). Nothing changed.
    case usedJustNow
    /// (v4) The right code of an account the support desk locked: not used. Nothing changed.
    case accountLocked
}
