/// `DELETE /v1/account`: needs a recent sign-in; the account and everything it owns go in one
/// transaction, every token stops working and the email is free again.
package struct AccountDeletionUseCase: Sendable {
    let accounts: any AccountRepository
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(accounts: any AccountRepository, policy: PasskeyPolicy, clock: any WallClock) {
        self.accounts = accounts
        self.policy = policy
        self.clock = clock
    }

    package func execute(session: ActiveSession) async throws(AccountManagementError) {
        guard session.session.signedInRecently(now: clock.now, window: policy.reauthenticationWindow) else {
            throw .reauthenticationRequired
        }
        let deleted: Bool
        do {
            deleted = try await accounts.deleteAccount(id: session.account.id)
        } catch {
            throw AccountManagementError(error)
        }
        guard deleted else { throw .notFound }
    }
}
