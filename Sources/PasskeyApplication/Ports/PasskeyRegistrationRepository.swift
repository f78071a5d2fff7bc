package import Foundation
package import PasskeyDomain

/// What adding a passkey to an existing account needs from storage: its challenge, consumed at
/// most once by its own account, and the insert of the verified credential within the account's
/// passkey limit. (The start reads the account's summary from `AccountRepository`.)
package protocol PasskeyRegistrationRepository: Sendable {
    func saveRegistrationChallenge(_ challenge: PasskeyRegistrationChallenge) async throws(RepositoryError)

    /// Marks the challenge consumed and returns it, only if it exists, belongs to `accountID`,
    /// is unexpired and was not consumed before; one atomic statement.
    func consumeRegistrationChallenge(id: ChallengeID, accountID: AccountID, now: Date)
        async throws(RepositoryError) -> PasskeyRegistrationChallenge?

    /// Stores a verified passkey unless its account holds `limit` passkeys already
    /// (`.limitReached`, nothing written). The count and the insert are atomic: of N concurrent
    /// additions to an account one short of the limit exactly one is `.added`. A credential ID
    /// already registered (to anyone) throws `.conflict(.credentialExists)`. With the passkey,
    /// in the same transaction, `notice` is queued when the account's address is verified and
    /// `event` (`passkey.added`) is written.
    @discardableResult
    func addCredential(_ credential: PasskeyCredential, limit: Int, notice: PendingNotice?, event: AccountEvent)
        async throws(RepositoryError) -> CredentialAddition
}
