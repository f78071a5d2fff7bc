import PasskeyApplication
import Synchronization
import Testing

/// The in-process gate in front of attempt decisions: one holder per key, FIFO hand-over,
/// a bounded queue.
@Suite(.timeLimit(.minutes(5))) struct AttemptGateTests {
    @Test func callersSharingAKeyNeverOverlap() async throws {
        let gate = AttemptGate()
        let inside = Counter()
        let overlaps = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                group.addTask {
                    // Every caller shares "email:a"; half also share an address key.
                    let keys = ["email:a", index.isMultiple(of: 2) ? "address:x" : "address:\(index)"]
                    let result = try await gate.withKeys(keys) { () async throws(RepositoryError) -> Bool in
                        let overlapped = inside.increment() > 1
                        await Task.yield()
                        inside.decrement()
                        return overlapped
                    }
                    // nil would mean refused: the queue bound (256) is above 50 callers.
                    return result ?? true
                }
            }
            return try await group.reduce(false) { $0 || $1 }
        }
        #expect(overlaps == false)
    }

    @Test func beyondTheWaitingBoundCallersAreRefusedAtOnce() async throws {
        let gate = AttemptGate(maximumWaiting: 2)
        let release = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await gate.withKeys(["k"]) { () async throws(RepositoryError) -> Int in
                for await _ in release.stream { break }
                return 0
            }
        }
        try await Self.until { gate.waiting(on: "k") == 0 }
        let waiters = (1...2).map { value in
            Task { try await gate.withKeys(["k"]) { () async throws(RepositoryError) -> Int in value } }
        }
        try await Self.until { gate.waiting(on: "k") == 2 }
        let refused = try await gate.withKeys(["k"]) { () async throws(RepositoryError) -> Int in 9 }
        #expect(refused == nil)
        release.continuation.yield()
        #expect(try await holder.value == 0)
        var served: Set<Int?> = []
        for waiter in waiters { served.insert(try await waiter.value) }
        #expect(served == [1, 2])
        #expect(gate.waiting(on: "k") == nil)
        // The key is free again.
        #expect(try await gate.withKeys(["k"]) { () async throws(RepositoryError) -> Int in 3 } == 3)
    }
}

extension AttemptGateTests {
    /// Polls a condition (state, not time): yields until it holds, failing after many tries.
    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<100_000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("condition never held")
    }
}

private final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
    func decrement() { value.withLock { $0 -= 1 } }
}
