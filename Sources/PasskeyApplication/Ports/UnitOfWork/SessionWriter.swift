package import Foundation
package import PasskeyDomain

/// Which of an account's sessions to end.
package enum SessionSelection: Hashable, Sendable {
    /// Every one.
    case all
    /// Those signed in with a password.
    case password
    /// Those signed in with this passkey.
    case signedIn(with: CredentialID)
}

/// Sessions, inside a transaction.
package protocol SessionWriter {
    func insert(_ session: AuthenticationSession) async throws(RepositoryError)

    /// (v4) How many of the account's sessions are live at `date`.
    func countLive(of accountID: AccountID, at date: Date) async throws(RepositoryError) -> Int

    /// Locks the session (`FOR SHARE`: a concurrent revocation waits until this transaction
    /// ends) and answers whether it is still live at `date`.
    func lockLive(_ id: SessionID, at date: Date) async throws(RepositoryError) -> Bool

    /// Ends one live session of the account; false when it is unknown, ended, expired or
    /// another account's.
    func revoke(_ id: SessionID, of accountID: AccountID, at date: Date) async throws(RepositoryError) -> Bool

    /// Ends the account's live sessions that `selection` names, except `keeping`; returns how many.
    @discardableResult
    func revoke(_ selection: SessionSelection, of accountID: AccountID, except keeping: SessionID?, at date: Date)
        async throws(RepositoryError) -> Int
}
