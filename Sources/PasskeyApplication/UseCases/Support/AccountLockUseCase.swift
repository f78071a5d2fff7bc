package import PasskeyDomain

/// (v4) `POST /v1/operator/accounts/{accountID}/lock` and `…/unlock` (role `support`).
///
/// Locking takes the account's row `FOR UPDATE` (`lockAgainstSignIns`): a sign-in that is writing
/// a session holds the row `FOR KEY SHARE` and commits first, and its session is then ended here
/// with the others; a sign-in that comes later waits for this transaction and finds the lock. So
/// a sign-in either finished before the lock (and its session ends) or is refused. The lock, the
/// ended sessions, the `account.locked` event (with the operator as its actor, its webhook) and
/// the notice commit together.
///
/// Unlocking an account that is not locked answers it as it is and records nothing.
package struct AccountLockUseCase: Sendable {
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

    package func lock(_ id: AccountID?, reason rawReason: String, by actor: SupportAgentName)
        async throws(SupportDeskError) -> SupportAccount
    {
        guard let id else { throw .notFound }
        guard let reason = LockReason(rawReason) else {
            throw .invalidRequest("reason must be 1 to 200 characters, without control characters.")
        }
        let now = clock.now
        let event = events.event(.accountLocked(reason: reason), accountID: id, at: now, by: actor)
        let notifier = notifier
        return try await store.transaction(as: SupportDeskError.self) {
            tx async throws(RepositoryError) -> Result<SupportAccount, SupportDeskError> in
            guard let account = try await tx.accounts.lockAgainstSignIns(id) else { return .failure(.notFound) }
            guard account.lock == nil else { return .failure(.alreadyLocked) }
            let lock = AccountLock(lockedAt: now, reason: reason)
            try await tx.accounts.setLock(id, to: lock)
            try await tx.sessions.revoke(.all, of: id, except: nil, at: now)
            try await tx.events.record(event)
            try await tx.queue(notifier.supportMail(.accountLocked, for: account, at: now))
            return .success(
                try await SupportAccount.read(account.replacingLock(with: lock), at: now, in: tx))
        }.get()
    }

    package func unlock(_ id: AccountID?, by actor: SupportAgentName) async throws(SupportDeskError) -> SupportAccount {
        guard let id else { throw .notFound }
        let now = clock.now
        let event = events.event(.accountUnlocked, accountID: id, at: now, by: actor)
        let notifier = notifier
        let found = try await store.transaction(as: SupportDeskError.self) {
            tx async throws(RepositoryError) -> SupportAccount? in
            guard let account = try await tx.accounts.lock(id) else { return nil }
            guard account.lock != nil else { return try await SupportAccount.read(account, at: now, in: tx) }
            try await tx.accounts.setLock(id, to: nil)
            try await tx.events.record(event)
            try await tx.queue(notifier.supportMail(.accountUnlocked, for: account, at: now))
            return try await SupportAccount.read(account.replacingLock(with: nil), at: now, in: tx)
        }
        guard let found else { throw .notFound }
        return found
    }
}

extension AccountSnapshot {
    func replacingLock(with lock: AccountLock?) -> AccountSnapshot {
        AccountSnapshot(
            account: account, email: email, emailVerified: emailVerified, language: language,
            hasPassword: hasPassword, lock: lock)
    }
}
