/// Why signing out failed (the session was already authenticated by the caller).
package enum SignOutError: Error, Hashable, Sendable {
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// Revokes the current session; its token stops working at once.
package struct SignOutUseCase: Sendable {
    let sessions: any SessionRepository
    let clock: any WallClock

    package init(sessions: any SessionRepository, clock: any WallClock) {
        self.sessions = sessions
        self.clock = clock
    }

    package func execute(session: ActiveSession) async throws(SignOutError) {
        do {
            _ = try await sessions.revokeSession(id: session.session.id, at: clock.now)
        } catch {
            throw .init(error)
        }
    }
}
