package import Foundation
package import PasskeyDomain

/// What completing an account registration came to.
package enum AccountRegistrationCompletion: Hashable, Sendable {
    case completed
    /// Unknown, expired or already completed.
    case unavailable
}

/// In-flight "new account with a passkey" ceremonies.
package protocol AccountRegistrationRepository: Sendable {
    func saveAccountRegistration(_ registration: PasskeyAccountRegistration) async throws(RepositoryError)

    /// The registration if it exists, is unexpired and not completed. Does not change it.
    func usableAccountRegistration(id: RegistrationID, now: Date) async throws(RepositoryError)
        -> PasskeyAccountRegistration?

    /// In one transaction: marks the registration completed (only if unused and unexpired),
    /// inserts account, email, passkey and the first session. Any conflict rolls all of it
    /// back, leaves the registration usable and throws `.conflict(_:)`.
    func completeAccountRegistration(
        id: RegistrationID, account: Account, email: AccountEmail, credential: PasskeyCredential,
        session: AuthenticationSession, now: Date
    ) async throws(RepositoryError) -> AccountRegistrationCompletion
}
