package import Foundation
package import PasskeyDomain

/// The "new account with a passkey" ceremony's completion, inside the transaction that creates
/// the account.
package protocol AccountRegistrationWriter {
    /// Marks the registration completed, only if it is unexpired, not completed and not used up;
    /// the row lock serialises concurrent finishes. False otherwise.
    func complete(_ id: RegistrationID, at date: Date) async throws(RepositoryError) -> Bool
}
