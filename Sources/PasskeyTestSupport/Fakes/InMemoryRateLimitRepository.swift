package import Foundation
package import PasskeyApplication
internal import Synchronization

/// `RateLimitRepository` in memory, with the same decisions as the PostgreSQL adapter (attempts
/// counted before the check, forgiven on success), for cheap unit tests of use-case branches.
/// `failNext` makes the next call throw, to reach the error branches.
package final class InMemoryRateLimitRepository: RateLimitRepository {
    private struct State {
        var hits: [String: [Date]] = [:]
        var attempts: [Int64: (email: String, address: String, at: Date)] = [:]
        var nextID: Int64 = 1
        var failNext: RepositoryError?
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Date

    package init(clock: @escaping @Sendable () -> Date = Date.init) { self.clock = clock }

    /// The next call throws this error.
    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }

    /// Hits counted on `key` by `countHit` (all of them, whatever their window), for assertions.
    package func hits(on key: String) -> Int { state.withLock { $0.hits[key, default: []].count } }

    /// Attempts counted now (not forgiven), for assertions.
    package var countedAttempts: Int { state.withLock { $0.attempts.count } }

    package func countHit(key: String, limit: Int, windowSeconds: Int) async throws(RepositoryError)
        -> RateLimitDecision
    {
        try state.withLock { (state) throws(RepositoryError) -> RateLimitDecision in
            if let error = state.failNext.take() { throw error }
            let now = clock()
            state.hits[key, default: []].append(now)
            let recent = state.hits[key, default: []].filter { now.timeIntervalSince($0) < Double(windowSeconds) }
            return recent.count > limit ? .limited(retryAfter: windowSeconds) : .allowed
        }
    }

    package func beginAttempt(
        normalizedEmail: String, clientAddress: String, limits: AttemptLimits, rightSecretPassesEmailLimit: Bool
    ) async throws(RepositoryError) -> AttemptDecision {
        let now = clock()
        return try state.withLock { (state) throws(RepositoryError) -> AttemptDecision in
            if let error = state.failNext.take() { throw error }
            let recent = state.attempts.values.filter { now.timeIntervalSince($0.at) < limits.window }
            let forEmail = recent.filter { $0.email == normalizedEmail }.count
            let forAddress = recent.filter { $0.address == clientAddress }.count
            let emailHasBudget = forEmail < limits.perEmail
            guard forAddress < limits.perAddress, emailHasBudget || rightSecretPassesEmailLimit else {
                return .limited(retryAfter: Int(limits.window))
            }
            let id = state.nextID
            state.nextID += 1
            state.attempts[id] = (normalizedEmail, clientAddress, now)
            return emailHasBudget
                ? .allowed(AttemptID(id)) : .emailLimited(AttemptID(id), retryAfter: Int(limits.window))
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
