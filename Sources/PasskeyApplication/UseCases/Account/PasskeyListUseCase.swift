package import PasskeyDomain

/// `GET /v1/passkeys`: the signed-in account's passkeys, oldest first.
package struct PasskeyListUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository

    package init(passkeys: any PasskeyCredentialRepository) { self.passkeys = passkeys }

    package func execute(session: ActiveSession) async throws(AccountManagementError) -> [PasskeyCredential] {
        do {
            return try await passkeys.credentials(accountID: session.account.id)
        } catch {
            throw AccountManagementError(error)
        }
    }
}
