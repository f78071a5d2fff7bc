/// `DELETE /v1/account/password`: stage ③ of the migration, once a passkey has signed in.
/// Needs a recent sign-in (it takes a `RecentSession`); every other password session of the
/// account ends with the password. A removal queues the `passwordRemoved` notice with it.
///
/// The contract's checks, in its order, under the account's lock (which passkey deletion takes
/// too, so the two cannot together leave the account with no way in): a password to remove, a
/// passkey that has signed in, and recovery set up (an unused code of the user's own set, or a
/// verified address while mail is on; a support code does not count).
package struct PasswordRemovalUseCase: Sendable {
    let store: any UnitOfWork
    let notifier: SecurityNotifier
    let clock: any WallClock
    /// (v3) Mail is on: a verified address counts as recovery set up (recovery by email).
    let verifiedEmailCounts: Bool
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, notifier: SecurityNotifier = .off, clock: any WallClock,
        mail: MailPolicy = .off, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.store = store
        self.notifier = notifier
        self.clock = clock
        self.verifiedEmailCounts = mail.enabled
    }

    package func execute(session: RecentSession, origin: RequestOrigin) async throws(AccountManagementError) {
        let now = clock.now
        let accountID = session.account.id
        let event = events.event(
            .passwordRemoved, accountID: accountID, sessionID: session.session.id, at: now, from: origin)
        try await store.transaction(as: AccountManagementError.self) {
            tx async throws(RepositoryError) -> Result<Void, AccountManagementError> in
            guard let account = try await tx.accounts.lock(accountID), account.hasPassword else {
                return .failure(.notFound)
            }
            try await tx.requireLive(session.session, at: now)
            guard try await tx.passkeys.list(accountID).contains(where: { $0.lastUsedAt != nil }) else {
                return .failure(.passkeyNotYetUsed)
            }
            let hasRecoveryCodes = try await tx.recoveryCodes.unusedUserCodes(of: accountID) > 0
            guard hasRecoveryCodes || (verifiedEmailCounts && account.emailVerified) else {
                return .failure(.recoveryNotSetUp)
            }
            try await tx.accounts.deletePassword(accountID)
            // A password that is gone no longer keeps anyone signed in, except the caller.
            try await tx.sessions.revoke(.password, of: accountID, except: session.session.id, at: now)
            try await tx.queue(notifier.mail(.passwordRemoved, for: account, at: now, from: origin))
            try await tx.events.record(event)
            return .success(())
        }.get()
    }
}
