package import PasskeyDomain

/// `PATCH /v1/passkeys/{credentialID}`: renames one of the signed-in account's passkeys.
package struct PasskeyRenameUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository

    package init(passkeys: any PasskeyCredentialRepository) { self.passkeys = passkeys }

    package func execute(session: ActiveSession, credentialID: CredentialID, name: PasskeyName)
        async throws(AccountManagementError) -> PasskeyCredential
    {
        let renamed: PasskeyCredential?
        do {
            renamed = try await passkeys.renameCredential(id: credentialID, accountID: session.account.id, to: name)
        } catch {
            throw AccountManagementError(error)
        }
        guard let renamed else { throw .notFound }
        return renamed
    }
}
