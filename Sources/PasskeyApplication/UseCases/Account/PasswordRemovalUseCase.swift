/// `DELETE /v1/account/password`: stage ③ of the migration, once a passkey has signed in.
/// Needs a recent sign-in (it takes a `RecentSession`); every other password session of the
/// account ends with the password. A removal queues the `passwordRemoved` notice with it.
package struct PasswordRemovalUseCase: Sendable {
    let accounts: any AccountRepository
    let notifier: SecurityNotifier
    let clock: any WallClock
    /// (v3) Mail is on: a verified address counts as recovery set up (recovery by email).
    let verifiedEmailCounts: Bool
    let events: AccountEventMaker

    package init(
        accounts: any AccountRepository, notifier: SecurityNotifier = .off, clock: any WallClock,
        mail: MailPolicy = .off, events: AccountEventMaker = AccountEventMaker()
    ) {
        self.events = events
        self.accounts = accounts
        self.notifier = notifier
        self.clock = clock
        self.verifiedEmailCounts = mail.enabled
    }

    package func execute(session: RecentSession, origin: RequestOrigin) async throws(AccountManagementError) {
        let now = clock.now
        let notice = notifier.notice(.passwordRemoved, at: now, from: origin)
        let event = events.event(
            .passwordRemoved, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let outcome = try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await accounts.removePassword(
                accountID: session.account.id, keepingSession: session.session.id,
                verifiedEmailCounts: verifiedEmailCounts, notice: notice, event: event)
        }
        switch outcome {
        case .removed: return
        case .noPassword: throw .notFound
        case .noPasskeyUsedYet: throw .passkeyNotYetUsed
        case .noRecoverySetUp: throw .recoveryNotSetUp
        }
    }
}
