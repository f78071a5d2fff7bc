import Dispatch
import Foundation
import PasskeyApplication
import PasskeyPasswordHashing
import Testing

/// Password work through the hasher stays within the pool's width and off the cooperative pool.
@Suite(.timeLimit(.minutes(5))) struct PasswordHashingConcurrencyTests {
    /// Deterministic on a busy machine: the pool's one thread is held until all four
    /// verifications are seen waiting behind it (sampling the queue while they ran could miss it
    /// when the sampling task was not scheduled in time), then released.
    @Test func verificationsRunOneAtATimeWithWidthOne() async throws {
        let pool = BlockingWorkPool(width: 1)
        let hasher = Argon2PasswordHasher(parameters: .owasp, limits: .standard, pool: pool)
        let hash = try await hasher.hash(PasswordHashVector.staple)
        let gate = DispatchSemaphore(value: 0)
        let holder = Task { try await pool.run { gate.wait() } }
        #expect(await Polling.until { pool.metrics.running == 1 })
        let results = try await withThrowingTaskGroup(of: PasswordVerification.self) { group in
            for _ in 0..<4 {
                group.addTask { try await hasher.verify(PasswordHashVector.staple, against: hash) }
            }
            #expect(await Polling.until { pool.metrics.waiting == 4 }, "the four verifications queue")
            gate.signal()
            // Watch the queue drain (not a timing assertion).
            while pool.metrics.completed < 6 {
                #expect(pool.metrics.running <= 1)
                try? await Task.sleep(for: .milliseconds(2))
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await holder.value
        #expect(results == Array(repeating: .match(needsRehash: false), count: 4))
        #expect(pool.metrics.peakRunning == 1)
        #expect(pool.metrics.completed == 6)
    }

    /// While more hashing threads than Swift's cooperative pool has are held by blocking work
    /// (and more waits behind them), an unrelated task still runs to completion. If the work ran
    /// on the cooperative threads, every one of them would be blocked and the probe could not
    /// run. Deterministic: the blocking work is released only after the probe has finished.
    @Test func cooperativePoolStaysFreeWhileHashing() async throws {
        let width = ProcessInfo.processInfo.activeProcessorCount + 1
        let pool = BlockingWorkPool(width: width)
        let gate = DispatchSemaphore(value: 0)
        let blocked = (0..<width).map { _ in Task { try await pool.run { gate.wait() } } }
        // Every thread is held before the next job is queued (the tasks start in any order).
        #expect(await Polling.until { pool.metrics.running == width })
        let queued = Task { try await pool.run { 42 } }
        #expect(await Polling.until { pool.metrics.running == width && pool.metrics.waiting == 1 })
        let probe = await Task { pool.metrics.completed }.value
        #expect(probe == 0, "the probe ran while the pool threads were still blocked")
        for _ in 0..<width { gate.signal() }
        for task in blocked { try await task.value }
        #expect(try await queued.value == 42)
        #expect(pool.metrics.peakRunning == width)
    }
}
