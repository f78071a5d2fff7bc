/// Why a bearer token was not accepted.
package enum BearerAuthenticationError: Error, Hashable, Sendable {
    /// Missing, malformed, unknown, revoked or expired: all the same to the client.
    case unauthorized
    case unavailable
    /// Something unexpected; `cause` is for the operator's log, never for the client.
    case internalFailure(cause: FailureCause)
}

/// Resolves `Authorization: Bearer …` to a live session.
package struct BearerAuthenticationUseCase: Sendable {
    let sessions: any SessionRepository
    let tokens: any SessionTokenGenerator
    let clock: any WallClock

    package init(sessions: any SessionRepository, tokens: any SessionTokenGenerator, clock: any WallClock) {
        self.sessions = sessions
        self.tokens = tokens
        self.clock = clock
    }

    package func execute(token: String?) async throws(BearerAuthenticationError) -> ActiveSession {
        guard let token, let digest = tokens.digest(ofPresentedToken: token) else { throw .unauthorized }
        let active: ActiveSession?
        do {
            active = try await sessions.activeSession(tokenDigest: digest, now: clock.now)
        } catch {
            throw .init(error)
        }
        guard let active else { throw .unauthorized }
        return active
    }
}
