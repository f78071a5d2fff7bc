/// What issuing a mailed code found, decided inside the transaction that stores it.
package enum EmailCodeIssue: Hashable, Sendable {
    /// The code and its mail are stored; the earlier unused codes of the purpose are void.
    case issued
    /// `verify`: the account's address is verified already. Nothing changed.
    case alreadyVerified
    /// `change`: another account has the new address. Nothing changed.
    case emailTaken
    /// The recipient had `EMAIL_SENDS_PER_HOUR` codes within the last hour. Nothing changed.
    case limited(retryAfter: Int)
    /// The account was deleted meanwhile. Nothing changed.
    case accountGone
}
