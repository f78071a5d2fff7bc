/// `DELETE /v1/account/password`: stage ③ of the migration, once a passkey has signed in.
/// Needs a recent sign-in; every other password session of the account ends with the password.
package struct PasswordRemovalUseCase: Sendable {
    let accounts: any AccountRepository
    let recentSignIn: RecentSignInRequirement

    package init(accounts: any AccountRepository, policy: PasskeyPolicy, clock: any WallClock) {
        self.accounts = accounts
        self.recentSignIn = RecentSignInRequirement(policy: policy, clock: clock)
    }

    package func execute(session: ActiveSession) async throws(AccountManagementError) {
        let outcome = try await recentSignIn.change(by: session) { () async throws(RepositoryError) in
            try await accounts.removePassword(accountID: session.account.id, keepingSession: session.session.id)
        }
        switch outcome {
        case .removed: return
        case .noPassword: throw .notFound
        case .noPasskeyUsedYet: throw .passkeyNotYetUsed
        case .noRecoverySetUp: throw .recoveryNotSetUp
        }
    }
}
