package import Foundation
package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `PasskeyAuthenticationRepository` in memory for unit tests of use cases, with the PostgreSQL
/// adapter's rules: `assertionContext` reads without consuming; `recordAssertion` consumes the
/// challenge (only unconsumed and unexpired, `expiresAt > now`) and then, unless `setStaleCounter`
/// simulates a concurrent assertion, moves the credential's counter and stores the session;
/// `consumeAuthenticationChallenge` consumes an unconsumed challenge, expired or not. The
/// credentials and accounts it knows are seeded with `register(_:account:)`. `failNext` makes
/// the next call throw, `failNextRecording` the next `recordAssertion`.
package final class InMemoryPasskeyAuthenticationRepository: PasskeyAuthenticationRepository {
    private struct State {
        var events: [AccountEvent] = []
        var challenges: [ChallengeID: PasskeyAuthenticationChallenge] = [:]
        var credentials: [CredentialID: (credential: PasskeyCredential, account: Account)] = [:]
        var sessions: [AuthenticationSession] = []
        var failNext: RepositoryError?
        var failNextRecording: RepositoryError?
        var staleCounter = false
    }

    private let state = Mutex(State())

    /// The activity-log entries written with changes that went through, in order.
    package var events: [AccountEvent] { state.withLock { $0.events } }

    package init() {}

    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// Makes only the next `recordAssertion` throw (after the reads went through).
    package func failNextRecording(_ error: RepositoryError) { state.withLock { $0.failNextRecording = error } }

    /// Consumes the challenge as a concurrent finish's `recordAssertion` would; false if it was
    /// consumed or expired already (for tests of races).
    @discardableResult
    package func consumeAsConcurrentFinish(id: ChallengeID, now: Date) -> Bool {
        state.withLock { Self.consume(id, now: now, unexpiredOnly: true, in: &$0) }
    }

    /// Makes `recordAssertion` answer `.staleCounter`, as when a concurrent assertion moved the counter.
    package func setStaleCounter(_ stale: Bool) { state.withLock { $0.staleCounter = stale } }

    /// Makes `assertionContext` find this credential and its account.
    package func register(_ credential: PasskeyCredential, account: Account) {
        state.withLock { $0.credentials[credential.id] = (credential, account) }
    }

    /// Every stored challenge (`consumedAt` set once consumed).
    package var challenges: [PasskeyAuthenticationChallenge] { state.withLock { Array($0.challenges.values) } }

    /// The sessions `recordAssertion` created, in order.
    package var sessions: [AuthenticationSession] { state.withLock { $0.sessions } }

    /// A registered credential as it stands now (counter and last use moved by `recordAssertion`).
    package func credential(id: CredentialID) -> PasskeyCredential? {
        state.withLock { $0.credentials[id]?.credential }
    }

    private func checkFailure(_ state: inout State) throws(RepositoryError) {
        if let error = state.failNext {
            state.failNext = nil
            throw error
        }
    }

    package func saveAuthenticationChallenge(_ challenge: PasskeyAuthenticationChallenge)
        async throws(RepositoryError)
    {
        try state.withLock { (state) throws(RepositoryError) in
            try checkFailure(&state)
            state.challenges[challenge.id] = challenge
        }
    }

    package func assertionContext(challengeID: ChallengeID, credentialID: CredentialID, now: Date)
        async throws(RepositoryError) -> AssertionContext
    {
        try state.withLock { (state) throws(RepositoryError) -> AssertionContext in
            try checkFailure(&state)
            let usable = state.challenges[challengeID].flatMap { $0.consumedAt == nil && $0.expiresAt > now ? $0 : nil }
            let found = state.credentials[credentialID]
            return AssertionContext(challenge: usable, credential: found?.credential, account: found?.account)
        }
    }

    @discardableResult
    package func consumeAuthenticationChallenge(id: ChallengeID, now: Date) async throws(RepositoryError) -> Bool {
        try state.withLock { (state) throws(RepositoryError) -> Bool in
            try checkFailure(&state)
            return Self.consume(id, now: now, unexpiredOnly: false, in: &state)
        }
    }

    package func recordAssertion(
        challengeID: ChallengeID, credentialID: CredentialID, expectedSignCount: UInt32, newSignCount: UInt32,
        backupState: Bool, usedAt: Date, session: AuthenticationSession, event: AccountEvent
    ) async throws(RepositoryError) -> AssertionRecording {
        try state.withLock { (state) throws(RepositoryError) -> AssertionRecording in
            try checkFailure(&state)
            if let error = state.failNextRecording {
                state.failNextRecording = nil
                throw error
            }
            guard Self.consume(challengeID, now: usedAt, unexpiredOnly: true, in: &state) else {
                return .challengeUnavailable
            }
            guard !state.staleCounter, var stored = state.credentials[credentialID],
                stored.credential.signCount == expectedSignCount
            else { return .staleCounter }
            stored.credential.signCount = max(stored.credential.signCount, newSignCount)
            stored.credential.backupState = backupState
            stored.credential.lastUsedAt = usedAt
            state.credentials[credentialID] = stored
            state.sessions.append(session)
            state.events.append(event)
            return .recorded
        }
    }

    /// Marks the challenge consumed at `now` if it is not yet (and, with `unexpiredOnly`, not expired).
    private static func consume(_ id: ChallengeID, now: Date, unexpiredOnly: Bool, in state: inout State) -> Bool {
        guard var challenge = state.challenges[id], challenge.consumedAt == nil,
            !unexpiredOnly || challenge.expiresAt > now
        else { return false }
        challenge.consumedAt = now
        state.challenges[id] = challenge
        return true
    }
}
