package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `SessionRepository` in memory for unit tests of use cases: sessions with their accounts
/// (`register` seeds an account), revocation and expiry. `failNext` makes the next call throw.
package final class InMemorySessionRepository: SessionRepository {
    private struct State {
        var sessions: [SessionID: AuthenticationSession] = [:]
        var accounts: [AccountID: Account] = [:]
        var failNext: RepositoryError?
        var events: [AccountEvent] = []
    }

    private let state = Mutex(State())

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }
    /// Makes `activeSession` able to return the account of a session.
    package func register(_ account: Account) { state.withLock { $0.accounts[account.id] = account } }
    package var all: [AuthenticationSession] { state.withLock { Array($0.sessions.values) } }
    /// The activity-log entries written with changes that went through, in order.
    package var events: [AccountEvent] { state.withLock { $0.events } }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func createSession(_ session: AuthenticationSession) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            state.sessions[session.id] = session
        }
    }

    package func createSession(_ session: AuthenticationSession, event: AccountEvent) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            state.sessions[session.id] = session
            state.events.append(event)
        }
    }

    package func activeSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> ActiveSession? {
        try state.withLock { (state) throws(RepositoryError) -> ActiveSession? in
            try checkFailure(&state)
            guard
                let session = state.sessions.values.first(where: {
                    $0.tokenDigest == tokenDigest && $0.revokedAt == nil && $0.expiresAt > now
                }), let account = state.accounts[session.accountID]
            else { return nil }
            return ActiveSession(session: session, account: account)
        }
    }

    package func revokeSession(id: SessionID, at date: Date) async throws(RepositoryError) -> Bool {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            guard state.sessions[id]?.revokedAt == nil, state.sessions[id] != nil else { return false }
            state.sessions[id]?.revokedAt = date
            return true
        }
    }

    package func activeSessions(accountID: AccountID, now: Date) async throws(RepositoryError)
        -> [AuthenticationSession]
    {
        try state.withLock { (state) throws(RepositoryError) -> [AuthenticationSession] in
            try checkFailure(&state)
            return state.sessions.values.filter {
                $0.accountID == accountID && $0.revokedAt == nil && $0.expiresAt > now
            }
            .sorted { $0.createdAt > $1.createdAt }
        }
    }

    package func revokeSession(id: SessionID, accountID: AccountID, now: Date, event: AccountEvent)
        async throws(RepositoryError) -> Bool
    {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            guard let session = state.sessions[id], session.accountID == accountID, session.revokedAt == nil,
                session.expiresAt > now
            else { return false }
            state.sessions[id]?.revokedAt = now
            state.events.append(event)
            return true
        }
    }

    package func revokeOtherSessions(accountID: AccountID, keeping: SessionID, now: Date, event: AccountEvent)
        async throws(RepositoryError) -> Int
    {
        try state.withLock { (state) throws(RepositoryError) -> Int in
            try checkFailure(&state)
            var count = 0
            for (id, session) in state.sessions
            where session.accountID == accountID && id != keeping && session.revokedAt == nil && session.expiresAt > now
            {
                state.sessions[id]?.revokedAt = now
                count += 1
            }
            if count > 0 { state.events.append(event) }
            return count
        }
    }
}
