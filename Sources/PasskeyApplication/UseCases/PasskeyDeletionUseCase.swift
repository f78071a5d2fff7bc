package import PasskeyDomain

/// `DELETE /v1/passkeys/{credentialID}`: needs a recent sign-in, refuses to remove the
/// account's last way in, and signs out every other session that signed in with the passkey.
package struct PasskeyDeletionUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository
    let recentSignIn: RecentSignInRequirement

    package init(passkeys: any PasskeyCredentialRepository, policy: PasskeyPolicy, clock: any WallClock) {
        self.passkeys = passkeys
        self.recentSignIn = RecentSignInRequirement(policy: policy, clock: clock)
    }

    /// `credentialID` is nil when the path named no well-formed credential (then 404, after the
    /// recent-sign-in check, which comes before every other error).
    package func execute(session: ActiveSession, credentialID: CredentialID?) async throws(AccountManagementError) {
        try recentSignIn.check(session)
        guard let credentialID else { throw .notFound }
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
