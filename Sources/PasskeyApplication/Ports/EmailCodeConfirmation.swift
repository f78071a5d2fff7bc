/// What presenting a code at a Bearer confirm endpoint found, decided under the code's row lock.
package enum EmailCodeConfirmation: Hashable, Sendable {
    /// The code was consumed and the change it confirms is stored.
    case confirmed
    /// `verify`: the address is verified already. Nothing changed.
    case alreadyVerified
    /// `change`: another account took the new address meanwhile. The code stays unused.
    case emailTaken
    /// No live code, or the presented one is wrong (its try is counted; the last allowed wrong
    /// try voids it).
    case wrongCode
    /// The code another use consumed just before this one arrived (a double submit). Nothing changed.
    case usedJustNow
    /// The account was deleted meanwhile. Nothing changed.
    case accountGone
}
