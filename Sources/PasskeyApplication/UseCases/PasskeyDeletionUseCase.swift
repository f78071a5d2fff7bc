package import PasskeyDomain

/// `DELETE /v1/passkeys/{credentialID}`: refuses to remove the account's last way in.
package struct PasskeyDeletionUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository

    package init(passkeys: any PasskeyCredentialRepository) { self.passkeys = passkeys }

    package func execute(session: ActiveSession, credentialID: CredentialID) async throws(AccountManagementError) {
        let outcome: PasskeyDeletionOutcome
        do {
            outcome = try await passkeys.deleteCredential(id: credentialID, accountID: session.account.id)
        } catch {
            throw AccountManagementError(error)
        }
        switch outcome {
        case .deleted: return
        case .notFound: throw .notFound
        case .lastCredential: throw .lastCredential
        }
    }
}
