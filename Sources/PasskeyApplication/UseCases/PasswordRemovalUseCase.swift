/// `DELETE /v1/account/password`: stage ③ of the migration, once a passkey has signed in.
/// Needs a recent sign-in; every other password session of the account ends with the password.
package struct PasswordRemovalUseCase: Sendable {
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
        let outcome: PasswordRemovalOutcome
        do {
            outcome = try await accounts.removePassword(
                accountID: session.account.id, keepingSession: session.session.id)
        } catch {
            throw AccountManagementError(error)
        }
        switch outcome {
        case .removed: return
        case .noPassword: throw .notFound
        case .noPasskeyUsedYet: throw .passkeyNotYetUsed
        case .noRecoverySetUp: throw .recoveryNotSetUp
        }
    }
}
