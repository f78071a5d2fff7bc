package import PasskeyDomain

/// `GET /v1/account/sessions`: the account's active sessions, newest first.
package struct SessionListUseCase: Sendable {
    let sessions: any SessionRepository
    let clock: any WallClock

    package init(sessions: any SessionRepository, clock: any WallClock) {
        self.sessions = sessions
        self.clock = clock
    }

    package func execute(session: ActiveSession) async throws(AccountManagementError) -> [AuthenticationSession] {
        do {
            return try await sessions.activeSessions(accountID: session.account.id, now: clock.now)
        } catch {
            throw AccountManagementError(error)
        }
    }
}
