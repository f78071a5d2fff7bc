/// Why signing out failed (the session was already authenticated by the caller).
package enum SignOutError: Error, Hashable, Sendable {
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// Revokes the current session; its token stops working at once.
package struct SignOutUseCase: Sendable {
    let store: any UnitOfWork
    let clock: any WallClock
    let events: AccountEventMaker

    package init(store: any UnitOfWork, clock: any WallClock, events: AccountEventMaker = AccountEventMaker()) {
        self.store = store
        self.clock = clock
        self.events = events
    }

    /// Ends the caller's session; (v4) a `signed-out` event is written with it, when it ended
    /// here (not when a racing request had ended it already).
    package func execute(session: ActiveSession, origin: RequestOrigin) async throws(SignOutError) {
        let now = clock.now
        let event = events.event(
            .signedOut, accountID: session.account.id, sessionID: session.session.id, at: now, from: origin)
        try await store.transaction(as: SignOutError.self) { tx async throws(RepositoryError) in
            if try await tx.sessions.revoke(session.session.id, of: session.account.id, at: now) {
                try await tx.events.record(event)
            }
        }
    }
}
