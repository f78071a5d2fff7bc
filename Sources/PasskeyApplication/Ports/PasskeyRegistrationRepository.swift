package import Foundation
package import PasskeyDomain

/// What adding a passkey to an existing account needs from storage: its challenge, consumed at
/// most once by its own account, and the insert of the verified credential. (The start reads the
/// account's summary from `AccountRepository`.)
package protocol PasskeyRegistrationRepository: Sendable {
    func saveRegistrationChallenge(_ challenge: PasskeyRegistrationChallenge) async throws(RepositoryError)

    /// Marks the challenge consumed and returns it, only if it exists, belongs to `accountID`,
    /// is unexpired and was not consumed before; one atomic statement.
    func consumeRegistrationChallenge(id: ChallengeID, accountID: AccountID, now: Date)
        async throws(RepositoryError) -> PasskeyRegistrationChallenge?

    /// Stores a verified passkey. A credential ID already registered (to anyone) throws
    /// `.conflict(.credentialExists)`.
    func addCredential(_ credential: PasskeyCredential) async throws(RepositoryError)
}
