package import PasskeyDomain

/// `DELETE /v1/account/sessions/{sessionID}` (one session of the account, the caller's own
/// included) and `DELETE /v1/account/sessions` (every other session). No recent sign-in needed:
/// ending sessions only ever takes access away. The event is written only when a session ended.
package struct SessionEndUseCase: Sendable {
    let store: any UnitOfWork
    let clock: any WallClock
    let events: AccountEventMaker

    package init(store: any UnitOfWork, clock: any WallClock, events: AccountEventMaker = AccountEventMaker()) {
        self.store = store
        self.clock = clock
        self.events = events
    }

    /// `id` is nil when the path named no well-formed session ID (then 404).
    package func endOne(_ id: SessionID?, session: ActiveSession, origin: RequestOrigin)
        async throws(AccountManagementError)
    {
        guard let id else { throw .notFound }
        let now = clock.now
        let event = events.event(
            .sessionsEnded(.one), accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        let ended = try await store.transaction(as: AccountManagementError.self) { tx async throws(RepositoryError) in
            guard try await tx.accounts.lock(session.account.id) != nil else { return false }
            try await tx.requireLive(session.session, at: now)
            guard try await tx.sessions.revoke(id, of: session.account.id, at: now) else { return false }
            try await tx.events.record(event)
            return true
        }
        guard ended else { throw .notFound }
    }

    package func endOthers(session: ActiveSession, origin: RequestOrigin) async throws(AccountManagementError) {
        let now = clock.now
        let event = events.event(
            .sessionsEnded(.others), accountID: session.account.id, sessionID: session.session.id, at: now,
            from: origin)
        try await store.transaction(as: AccountManagementError.self) { tx async throws(RepositoryError) in
            guard try await tx.accounts.lock(session.account.id) != nil else { return }
            try await tx.requireLive(session.session, at: now)
            let ended = try await tx.sessions.revoke(.all, of: session.account.id, except: session.session.id, at: now)
            if ended > 0 { try await tx.events.record(event) }
        }
    }
}
