package import PasskeyDomain

/// `DELETE /v1/account/sessions/{sessionID}` (one session of the account, the caller's own
/// included) and `DELETE /v1/account/sessions` (every other session). No recent sign-in needed:
/// ending sessions only ever takes access away.
package struct SessionEndUseCase: Sendable {
    let sessions: any SessionRepository
    let clock: any WallClock
    let events: AccountEventMaker

    package init(sessions: any SessionRepository, clock: any WallClock, events: AccountEventMaker = AccountEventMaker())
    {
        self.sessions = sessions
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
        let ended: Bool
        do {
            ended = try await sessions.revokeSession(id: id, accountID: session.account.id, now: now, event: event)
        } catch {
            throw AccountManagementError(error)
        }
        guard ended else { throw .notFound }
    }

    package func endOthers(session: ActiveSession, origin: RequestOrigin) async throws(AccountManagementError) {
        let now = clock.now
        let event = events.event(
            .sessionsEnded(.others), accountID: session.account.id, sessionID: session.session.id, at: now,
            from: origin)
        do {
            _ = try await sessions.revokeOtherSessions(
                accountID: session.account.id, keeping: session.session.id, now: now, event: event)
        } catch {
            throw AccountManagementError(error)
        }
    }
}
