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

    /// The registration if it exists, is unexpired, not completed and not used up by
    /// `PasskeyAccountRegistration.maximumFailedFinishes` failing finishes. Does not change it.
    func usableAccountRegistration(id: RegistrationID, now: Date) async throws(RepositoryError)
        -> PasskeyAccountRegistration?

    /// Counts one failing finish, atomically (across instances and concurrent finishes): true if the
    /// registration was still usable and had fewer than `maximumFailedFinishes` failures, so this
    /// failure may be answered; false if it is unknown, expired, completed or used up (then
    /// nothing changes).
    func recordFailedFinish(id: RegistrationID, now: Date) async throws(RepositoryError) -> Bool

    /// In one transaction: marks the registration completed (only if usable, as above),
    /// inserts account, passkey, email and the first session (in this
    /// order, so that a registered credential is reported before a taken email). Any conflict rolls all of it
    /// back, leaves the registration usable and throws `.conflict(_:)`.
    /// (v3) `verification`: the code and mail to the new address, stored in the same transaction,
    /// and `events` (`account.created`, `passkey.added`) written in it.
    func completeAccountRegistration(
        id: RegistrationID, account: Account, email: AccountEmail, credential: PasskeyCredential,
        session: AuthenticationSession, now: Date, verification: EmailCodeMail?, events: [AccountEvent]
    ) async throws(RepositoryError) -> AccountRegistrationCompletion
}

extension AccountRegistrationRepository {
    /// A completion that mails nothing.
    package func completeAccountRegistration(
        id: RegistrationID, account: Account, email: AccountEmail, credential: PasskeyCredential,
        session: AuthenticationSession, now: Date
    ) async throws(RepositoryError) -> AccountRegistrationCompletion {
        try await completeAccountRegistration(
            id: id, account: account, email: email, credential: credential, session: session, now: now,
            verification: nil, events: [])
    }
}
