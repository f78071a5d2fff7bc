package import Foundation
package import PasskeyDomain

/// In-flight "new account with a passkey" ceremonies (their completion, with the account it
/// creates, goes through the `UnitOfWork`).
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
}
