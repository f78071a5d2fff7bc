internal import Foundation
package import PasskeyDomain

/// Reading an account's registered passkeys (changes go through the `UnitOfWork`).
package protocol PasskeyCredentialRepository: Sendable {
    /// The account's passkeys, oldest first.
    func credentials(accountID: AccountID) async throws(RepositoryError) -> [PasskeyCredential]

}
