package import Foundation
package import PasskeyDomain

/// What adding a passkey to an existing account needs from storage: its challenge, consumed at
/// most once by its own account. (The start reads the account's summary from
/// `AccountRepository`; the finish stores the passkey through the `UnitOfWork`.)
package protocol PasskeyRegistrationRepository: Sendable {
    func saveRegistrationChallenge(_ challenge: PasskeyRegistrationChallenge) async throws(RepositoryError)

    /// Marks the challenge consumed and returns it, only if it exists, belongs to `accountID`,
    /// is unexpired and was not consumed before; one atomic statement.
    func consumeRegistrationChallenge(id: ChallengeID, accountID: AccountID, now: Date)
        async throws(RepositoryError) -> PasskeyRegistrationChallenge?
}
