/// `DELETE /v1/account`: needs a recent sign-in; the account and everything it owns go in one
/// transaction, every token stops working and the email is free again.
package struct AccountDeletionUseCase: Sendable {
    let accounts: any AccountRepository
    let recentSignIn: RecentSignInRequirement

    package init(accounts: any AccountRepository, policy: PasskeyPolicy, clock: any WallClock) {
        self.accounts = accounts
        self.recentSignIn = RecentSignInRequirement(policy: policy, clock: clock)
    }

    package func execute(session: ActiveSession) async throws(AccountManagementError) {
        let deleted = try await recentSignIn.change(by: session) { () async throws(RepositoryError) in
            try await accounts.deleteAccount(id: session.account.id)
        }
        guard deleted else { throw .notFound }
    }
}
