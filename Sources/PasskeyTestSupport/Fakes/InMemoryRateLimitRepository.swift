package import Foundation
package import PasskeyApplication
internal import Synchronization

/// `RateLimitRepository` in memory, with the same decisions as the PostgreSQL adapter (attempts
/// counted before the check, forgiven on success), for cheap unit tests of use-case branches.
/// `failNext` makes the next call throw, to reach the error branches.
package final class InMemoryRateLimitRepository: RateLimitRepository {
    private struct State {
        var hits: [String: Int] = [:]
        var attempts: [Int64: (email: String, address: String, at: Date)] = [:]
        var nextID: Int64 = 1
        var failNext: RepositoryError?
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Date

    package init(clock: @escaping @Sendable () -> Date = Date.init) { self.clock = clock }

    /// The next call throws this error.
    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// Hits counted on `key` by `countHit` (the window is not modelled), for assertions.
    package func hits(on key: String) -> Int { state.withLock { $0.hits[key, default: 0] } }

    /// Attempts counted now (not forgiven), for assertions.
    package var countedAttempts: Int { state.withLock { $0.attempts.count } }

    package func countHit(key: String, limit: Int, windowSeconds: Int) async throws(RepositoryError)
        -> RateLimitDecision
    {
        try state.withLock { (state) throws(RepositoryError) -> RateLimitDecision in
            if let error = state.failNext.take() { throw error }
            state.hits[key, default: 0] += 1
            return state.hits[key, default: 0] > limit ? .limited(retryAfter: windowSeconds) : .allowed
        }
    }

    package func beginAttempt(normalizedEmail: String, clientAddress: String, limits: AttemptLimits)
        async throws(RepositoryError) -> AttemptDecision
    {
        let now = clock()
        return try state.withLock { (state) throws(RepositoryError) -> AttemptDecision in
            if let error = state.failNext.take() { throw error }
            let recent = state.attempts.values.filter { now.timeIntervalSince($0.at) < limits.window }
            let forEmail = recent.filter { $0.email == normalizedEmail }.count
            let forAddress = recent.filter { $0.address == clientAddress }.count
            guard forEmail < limits.perEmail, forAddress < limits.perAddress else {
                return .limited(retryAfter: Int(limits.window))
            }
            let id = state.nextID
            state.nextID += 1
            state.attempts[id] = (normalizedEmail, clientAddress, now)
            return .allowed(AttemptID(id))
        }
    }

    package func forgiveAttempt(_ attempt: AttemptID) async throws(RepositoryError) {
        try state.withLock { (state) throws(RepositoryError) in
            if let error = state.failNext.take() { throw error }
            state.attempts[attempt.value] = nil
        }
    }
}

extension Optional {
    /// The value, leaving nil behind.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
