/// `DELETE /v1/account/password`: stage ③ of the migration, once a passkey has signed in.
/// Needs a recent sign-in (it takes a `RecentSession`); every other password session of the
/// account ends with the password.
package struct PasswordRemovalUseCase: Sendable {
    let accounts: any AccountRepository
    /// (v3) Mail is on: a verified address counts as recovery set up (recovery by email).
    let verifiedEmailCounts: Bool

    package init(accounts: any AccountRepository, mail: MailPolicy = .off) {
        self.accounts = accounts
        self.verifiedEmailCounts = mail.enabled
    }

    package func execute(session: RecentSession) async throws(AccountManagementError) {
        let outcome = try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await accounts.removePassword(
                accountID: session.account.id, keepingSession: session.session.id,
                verifiedEmailCounts: verifiedEmailCounts)
        }
        switch outcome {
        case .removed: return
        case .noPassword: throw .notFound
        case .noPasskeyUsedYet: throw .passkeyNotYetUsed
        case .noRecoverySetUp: throw .recoveryNotSetUp
        }
    }
}
