internal import Synchronization

/// Serialises, inside one process, the attempt decisions that share a key (an email or a
/// client address), so that a burst of attempts on one key waits here, holding no database
/// connection, instead of in the database on its lock with a pooled connection each. The
/// database lock still serialises across instances; this only keeps one instance's burst from
/// occupying the pool. At most `maximumWaiting` callers wait per key; more are refused at once.
package final class AttemptGate: Sendable {
    private struct Key {
        var held = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    private let keys = Mutex<[String: Key]>([:])
    let maximumWaiting: Int

    package init(maximumWaiting: Int = 256) {
        self.maximumWaiting = maximumWaiting
    }

    /// Runs `body` while holding every key (taken in sorted order, so two callers never wait on
    /// each other in a cycle); nil without running it when a key already has `maximumWaiting` waiters.
    package func withKeys<T>(_ wanted: [String], _ body: () async throws(RepositoryError) -> T)
        async throws(RepositoryError) -> T?
    {
        let ordered = Array(Set(wanted)).sorted()
        var held: [String] = []
        defer { for key in held.reversed() { release(key) } }
        for key in ordered {
            guard await acquire(key) else { return nil }
            held.append(key)
        }
        return try await body()
    }

    /// How many callers wait for `key`; nil when nobody holds it (for tests and diagnostics).
    package func waiting(on key: String) -> Int? {
        keys.withLock { $0[key].map(\.waiters.count) }
    }

    private func acquire(_ key: String) async -> Bool {
        enum Decision {
            case acquired
            case wait
            case refused
        }
        // Decide and register under one lock section, so a release in between cannot be missed.
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let decision: Decision = keys.withLock { keys in
                var entry = keys[key] ?? Key()
                defer { keys[key] = entry }
                if !entry.held {
                    entry.held = true
                    return .acquired
                }
                guard entry.waiters.count < maximumWaiting else { return .refused }
                entry.waiters.append(continuation)
                return .wait
            }
            switch decision {
            case .acquired: continuation.resume(returning: true)
            case .refused: continuation.resume(returning: false)
            case .wait: break
            }
        }
    }

    private func release(_ key: String) {
        let next: CheckedContinuation<Bool, Never>? = keys.withLock { keys in
            guard var entry = keys[key] else { return nil }
            if entry.waiters.isEmpty {
                keys[key] = nil  // nothing is kept for keys nobody holds
                return nil
            }
            let next = entry.waiters.removeFirst()  // the key passes straight to the next waiter
            keys[key] = entry
            return next
        }
        next?.resume(returning: true)
    }
}

extension AttemptGate {
    /// Counts one sign-in attempt (password or recovery code) for this email and address in the
    /// database, serialised here per email and per address. More callers already waiting on one
    /// key than any limit could allow are refused at once (`.limited`, retry after 1 s).
    package func beginAttempt(
        email: String, clientAddress: String, limits: AttemptLimits, rightSecretPassesEmailLimit: Bool = false,
        in repository: any RateLimitRepository
    ) async throws(RepositoryError) -> AttemptDecision {
        // Only the decision is serialised, never the check of the secret that follows it.
        let decided = try await withKeys(["email:" + email, "address:" + clientAddress]) {
            () async throws(RepositoryError) -> AttemptDecision in
            try await repository.beginAttempt(
                normalizedEmail: email, clientAddress: clientAddress, limits: limits,
                rightSecretPassesEmailLimit: rightSecretPassesEmailLimit)
        }
        return decided ?? .limited(retryAfter: 1)
    }
}

extension AttemptGate {
    /// Runs `body` once every earlier caller in line for `key` is done (uses of one secret wait
    /// for each other, so each is decided knowing the one before); more callers than
    /// `maximumWaiting` already in line are answered "retry in a second" at once.
    package func inLine<T: Sendable, Failure: RateLimitedError & Sendable>(
        _ key: String, as _: Failure.Type, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let outcome = try await Failure.catching { () async throws(RepositoryError) -> Result<T, Failure>? in
            try await withKeys([key]) { () async throws(RepositoryError) -> Result<T, Failure> in
                do throws(Failure) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let outcome else { throw .rateLimited(retryAfter: 1) }
        return try outcome.get()
    }
}
