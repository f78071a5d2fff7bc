internal import Foundation
package import PasskeyDomain

/// (v4) An account as the support desk sees it (the spec's OperatorAccount): who it is, how it
/// signs in, how many sessions are live, its recovery state and its lock. Read in one
/// transaction, so its parts fit together.
package struct SupportAccount: Hashable, Sendable {
    package let account: Account
    package let email: EmailAddress
    package let emailVerified: Bool
    package let hasPassword: Bool
    package let passkeys: [PasskeyCredential]
    package let activeSessions: Int
    /// Unused codes of the user's own set (an operator code does not count).
    package let recoveryCodesRemaining: Int
    package let lock: AccountLock?

    package init(
        account: Account, email: EmailAddress, emailVerified: Bool, hasPassword: Bool, passkeys: [PasskeyCredential],
        activeSessions: Int, recoveryCodesRemaining: Int, lock: AccountLock?
    ) {
        self.account = account
        self.email = email
        self.emailVerified = emailVerified
        self.hasPassword = hasPassword
        self.passkeys = passkeys
        self.activeSessions = activeSessions
        self.recoveryCodesRemaining = recoveryCodesRemaining
        self.lock = lock
    }

    package var stage: MigrationStage { MigrationStage(hasPassword: hasPassword, hasPasskey: !passkeys.isEmpty) }

    /// Reads the account `snapshot` names, in `tx`.
    static func read(_ snapshot: AccountSnapshot, at now: Date, in tx: any StoreTransaction)
        async throws(RepositoryError) -> SupportAccount
    {
        SupportAccount(
            account: snapshot.account, email: snapshot.email, emailVerified: snapshot.emailVerified,
            hasPassword: snapshot.hasPassword, passkeys: try await tx.passkeys.list(snapshot.id),
            activeSessions: try await tx.sessions.countLive(of: snapshot.id, at: now),
            recoveryCodesRemaining: try await tx.recoveryCodes.unusedUserCodes(of: snapshot.id),
            lock: snapshot.lock)
    }
}
