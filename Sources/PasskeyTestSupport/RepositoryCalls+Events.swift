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

extension AccountRepository {
    /// The rule of v2 (only the user's own recovery set counts), and no notice.
    /// (v3: with its `password.removed` event, from the command line.)
    package func removePassword(accountID: AccountID, keepingSession: SessionID) async throws(RepositoryError)
        -> PasswordRemovalOutcome
    {
        try await removePassword(
            accountID: accountID, keepingSession: keepingSession, verifiedEmailCounts: false, notice: nil,
            event: AccountEventMaker().event(
                .passwordRemoved, accountID: accountID, sessionID: keepingSession, at: Date(), from: .commandLine))
    }

    /// A sign-up that mails nothing (mail off, and the tests that need no code), with its
    /// `account.created` event from the command line.
    package func createPasswordAccount(_ account: Account, email: AccountEmail, password: PasswordCredential)
        async throws(RepositoryError)
    {
        try await createPasswordAccount(
            account, email: email, password: password, verification: nil,
            event: AccountEventMaker().event(
                .accountCreated(.password), accountID: account.id, sessionID: nil, at: account.createdAt,
                from: .commandLine))
    }
}

extension PasskeyRegistrationRepository {
    /// Stores a verified passkey and queues no notice.
    @discardableResult
    package func addCredential(_ credential: PasskeyCredential, limit: Int) async throws(RepositoryError)
        -> CredentialAddition
    {
        try await addCredential(
            credential, limit: limit, notice: nil,
            event: AccountEventMaker().event(
                .passkeyAdded(.modal, credentialID: credential.id), accountID: credential.accountID, sessionID: nil,
                at: credential.createdAt, from: .commandLine))
    }
}

extension RecoveryCodeRepository {
    /// Replaces the codes and queues no notice.
    package func replaceCodes(accountID: AccountID, with codes: [StoredRecoveryCode]) async throws(RepositoryError)
        -> Bool
    {
        try await replaceCodes(
            accountID: accountID, with: codes, notice: nil,
            event: AccountEventMaker().event(
                .recoveryCodesCreated, accountID: accountID, sessionID: nil, at: Date(), from: .commandLine))
    }

    /// Issues an operator code and queues no notice.
    package func addOperatorCode(
        normalizedEmail: String, issuedBy: SupportAgentName,
        makeCode: @escaping @Sendable (AccountID) -> StoredRecoveryCode
    ) async throws(RepositoryError) -> AccountID? {
        try await addOperatorCode(
            normalizedEmail: normalizedEmail, issuedBy: issuedBy, notice: nil,
            event: AccountEventMaker().pending(
                .recoveryCodeIssued(issuer: issuedBy), sessionID: nil, at: Date(), from: .commandLine),
            makeCode: makeCode)
    }

    /// Redeems a code and queues no notice.
    package func redeem(
        normalizedEmail: String, codeDigest: [UInt8], now: Date, recentUseWindow: TimeInterval,
        makeSession: @escaping @Sendable (Account) -> AuthenticationSession
    ) async throws(RepositoryError) -> RecoveryCodeRedemption {
        try await redeem(
            normalizedEmail: normalizedEmail, codeDigest: codeDigest, now: now, recentUseWindow: recentUseWindow,
            notice: { _ in nil }, makeSession: makeSession,
            events: SignInEvents(
                success: AccountEventMaker().pending(
                    .signIn(.recovery, credentialID: nil), sessionID: nil, at: now, from: .commandLine),
                failure: AccountEventMaker().pending(
                    .signInFailed(.recovery), sessionID: nil, at: now, from: .commandLine)
            ))
    }
}

extension PasskeyCredentialRepository {
    /// Deletes a passkey and queues no notice.
    package func deleteCredential(id: CredentialID, accountID: AccountID, keepingSession: SessionID)
        async throws(RepositoryError) -> PasskeyDeletionOutcome
    {
        try await deleteCredential(
            id: id, accountID: accountID, keepingSession: keepingSession, notice: nil,
            event: AccountEventMaker().event(
                .passkeyDeleted(credentialID: id), accountID: accountID, sessionID: keepingSession, at: Date(),
                from: .commandLine))
    }
}
