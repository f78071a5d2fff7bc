package import PasskeyDomain

/// `DELETE /v1/passkeys/{credentialID}`: needs a recent sign-in (it takes a `RecentSession`),
/// refuses to remove the account's last way in, and signs out every other session that signed
/// in with the passkey.
package struct PasskeyDeletionUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository

    package init(passkeys: any PasskeyCredentialRepository) {
        self.passkeys = passkeys
    }

    package func execute(session: RecentSession, credentialID: CredentialID) async throws(AccountManagementError) {
        let outcome = try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await passkeys.deleteCredential(
                id: credentialID, accountID: session.account.id, keepingSession: session.session.id)
        }
        switch outcome {
        case .deleted: return
        case .notFound: throw .notFound
        case .lastCredential: throw .lastCredential
        }
    }
}
