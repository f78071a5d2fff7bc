/// `DELETE /v1/account`: needs a recent sign-in (it takes a `RecentSession`); the account and
/// everything it owns go in one transaction, every token stops working and the email is free again.
package struct AccountDeletionUseCase: Sendable {
    let accounts: any AccountRepository

    package init(accounts: any AccountRepository) {
        self.accounts = accounts
    }

    package func execute(session: RecentSession) async throws(AccountManagementError) {
        let deleted = try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await accounts.deleteAccount(id: session.account.id)
        }
        guard deleted else { throw .notFound }
    }
}
