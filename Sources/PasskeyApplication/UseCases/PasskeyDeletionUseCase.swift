package import PasskeyDomain

/// `DELETE /v1/passkeys/{credentialID}`: needs a recent sign-in, refuses to remove the
/// account's last way in, and signs out every other session that signed in with the passkey.
package struct PasskeyDeletionUseCase: Sendable {
    let passkeys: any PasskeyCredentialRepository
    let policy: PasskeyPolicy
    let clock: any WallClock

    package init(passkeys: any PasskeyCredentialRepository, policy: PasskeyPolicy, clock: any WallClock) {
        self.passkeys = passkeys
        self.policy = policy
        self.clock = clock
    }

    /// `credentialID` is nil when the path named no well-formed credential (then 404, after the
    /// recent-sign-in check, which comes before every other error).
    package func execute(session: ActiveSession, credentialID: CredentialID?) async throws(AccountManagementError) {
        guard session.session.signedInRecently(now: clock.now, window: policy.reauthenticationWindow) else {
            throw .reauthenticationRequired
        }
        guard let credentialID else { throw .notFound }
        let outcome: PasskeyDeletionOutcome
        do {
            outcome = try await passkeys.deleteCredential(
                id: credentialID, accountID: session.account.id, keepingSession: session.session.id)
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
