/// `DELETE /v1/account`: needs a recent sign-in (it takes a `RecentSession`); the account and
/// everything it owns go in one transaction, every token stops working and the email is free again.
/// The `accountDeleted` notice is queued in that transaction, to the address read before the delete.
package struct AccountDeletionUseCase: Sendable {
    let accounts: any AccountRepository
    let notifier: SecurityNotifier
    let clock: any WallClock

    package init(accounts: any AccountRepository, notifier: SecurityNotifier = .off, clock: any WallClock) {
        self.accounts = accounts
        self.notifier = notifier
        self.clock = clock
    }

    package func execute(session: RecentSession, origin: RequestOrigin) async throws(AccountManagementError) {
        let notice = notifier.notice(.accountDeleted, at: clock.now, from: origin)
        let deleted = try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await accounts.deleteAccount(id: session.account.id, notice: notice)
        }
        guard deleted else { throw .notFound }
    }
}
