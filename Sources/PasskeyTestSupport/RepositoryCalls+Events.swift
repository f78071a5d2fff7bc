package import Foundation
package import PasskeyApplication
package import PasskeyDomain

/// The repository calls of the tests that are about something else than the activity log, with
/// the event each change now writes made here (from the command line, no user agent). The tests
/// of the log itself pass their events explicitly.
package enum TestEvents {
    package static func event(_ activity: AccountActivity, accountID: AccountID, sessionID: SessionID? = nil)
        -> AccountEvent
    {
        AccountEventMaker().event(activity, accountID: accountID, sessionID: sessionID, at: Date(), from: .commandLine)
    }
}

extension PasskeyAuthenticationRepository {
    /// `recordAssertion` with the session's `sign-in` event.
    package func recordAssertion(
        challengeID: ChallengeID, credentialID: CredentialID, expectedSignCount: UInt32, newSignCount: UInt32,
        backupState: Bool, usedAt: Date, session: AuthenticationSession
    ) async throws(RepositoryError) -> AssertionRecording {
        try await recordAssertion(
            challengeID: challengeID, credentialID: credentialID, expectedSignCount: expectedSignCount,
            newSignCount: newSignCount, backupState: backupState, usedAt: usedAt, session: session,
            event: TestEvents.event(
                .signIn(.passkey, credentialID: credentialID), accountID: session.accountID, sessionID: session.id))
    }
}

extension PasskeyCredentialRepository {
    /// `renameCredential` with its `passkey.renamed` event.
    package func renameCredential(id: CredentialID, accountID: AccountID, to name: PasskeyName)
        async throws(RepositoryError) -> PasskeyCredential?
    {
        try await renameCredential(
            id: id, accountID: accountID, to: name,
            event: TestEvents.event(.passkeyRenamed(credentialID: id), accountID: accountID))
    }
}

extension EmailCodeRepository {
    /// `confirmVerification` with its `email.verified` event.
    package func confirmVerification(
        accountID: AccountID, now: Date, maximumTries: Int, matches: @escaping @Sendable (UUID, [UInt8]) -> Bool
    ) async throws(RepositoryError) -> EmailCodeConfirmation {
        try await confirmVerification(
            accountID: accountID, now: now, maximumTries: maximumTries, matches: matches,
            event: TestEvents.event(.emailVerified, accountID: accountID))
    }
}

extension ImportedPasswordAccount {
    /// An imported account with its `account.created` (import) event.
    package init(account: Account, email: AccountEmail, password: PasswordCredential) {
        self.init(
            account: account, email: email, password: password,
            event: TestEvents.event(.accountCreated(.import), accountID: account.id))
    }
}
