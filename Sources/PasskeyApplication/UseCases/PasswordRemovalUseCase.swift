/// `DELETE /v1/account/password`: stage ③ of the migration, once a passkey has signed in.
package struct PasswordRemovalUseCase: Sendable {
    let accounts: any AccountRepository

    package init(accounts: any AccountRepository) { self.accounts = accounts }

    package func execute(session: ActiveSession) async throws(AccountManagementError) {
        let outcome: PasswordRemovalOutcome
        do {
            outcome = try await accounts.removePassword(accountID: session.account.id)
        } catch {
            throw AccountManagementError(error)
        }
        switch outcome {
        case .removed: return
        case .noPassword: throw .notFound
        case .noPasskeyUsedYet: throw .passkeyNotYetUsed
        }
    }
}
