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

    package init(store: any UnitOfWork, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    package func execute(session: ActiveSession) async throws(SignOutError) {
        let now = clock.now
        try await store.transaction(as: SignOutError.self) { tx async throws(RepositoryError) in
            _ = try await tx.sessions.revoke(session.session.id, of: session.account.id, at: now)
        }
    }
}
