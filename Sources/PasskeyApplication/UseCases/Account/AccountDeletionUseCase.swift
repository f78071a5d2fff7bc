package import PasskeyDomain

/// An account deleted with everything it owned.
package struct AccountDeletion: Sendable {
    package let accountID: AccountID
}

/// `DELETE /v1/account`: needs a recent sign-in (it takes a `RecentSession`); the account and
/// everything it owns go in one transaction, every token stops working and the email is free again.
/// The `accountDeleted` notice is queued in that transaction, to the address read under its lock
/// (the outbox has no foreign key, so the notice outlives the account).
package struct AccountDeletionUseCase: Sendable {
    let store: any UnitOfWork
    let notifier: SecurityNotifier
    let clock: any WallClock
    let events: AccountEventMaker

    package init(
        store: any UnitOfWork, notifier: SecurityNotifier = .off, clock: any WallClock,
        events: AccountEventMaker = AccountEventMaker()
    ) {
        self.store = store
        self.notifier = notifier
        self.clock = clock
        self.events = events
    }

    @discardableResult
    package func execute(session: RecentSession, origin: RequestOrigin) async throws(AccountManagementError)
        -> AccountDeletion
    {
        let now = clock.now
        let deleted = try await store.transaction(as: AccountManagementError.self) { tx async throws(RepositoryError) in
            guard try await tx.accounts.lock(session.account.id) != nil else { return false }
            try await tx.requireLive(session.session, at: now)
            guard let account = try await tx.accounts.delete(session.account.id) else { return false }
            try await tx.queue(notifier.mail(.accountDeleted, for: account, at: now, from: origin))
            // (v4) account.deleted for the webhooks and the events API: the activity went with the
            // account, this event outlives it.
            try await tx.events.record(
                events.event(
                    .accountDeleted, accountID: session.account.id, sessionID: session.session.id, at: now,
                    from: origin))
            return true
        }
        guard deleted else { throw .notFound }
        return AccountDeletion(accountID: session.account.id)
    }
}
