/// `GET /v1/account`: the account with email, password presence and passkeys.
package struct AccountQueryUseCase: Sendable {
    let accounts: any AccountRepository

    package init(accounts: any AccountRepository) { self.accounts = accounts }

    package func execute(session: ActiveSession) async throws(AccountManagementError) -> AccountSummary {
        let summary: AccountSummary?
        do {
            summary = try await accounts.accountSummary(id: session.account.id)
        } catch {
            throw AccountManagementError(error)
        }
        guard let summary else { throw .notFound }
        return summary
    }
}
