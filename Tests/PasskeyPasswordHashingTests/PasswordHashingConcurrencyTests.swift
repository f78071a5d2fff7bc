import PasskeyApplication
import PasskeyPasswordHashing
import Testing

/// Password work through the hasher stays within the pool's width and off the cooperative pool.
@Suite(.timeLimit(.minutes(1))) struct PasswordHashingConcurrencyTests {
    @Test func verificationsRunOneAtATimeWithWidthOne() async throws {
        let pool = BlockingWorkPool(width: 1)
        let hasher = Argon2PasswordHasher(parameters: .owasp, limits: .standard, pool: pool)
        let hash = try await hasher.hash(PasswordHashVector.staple)
        let mostWaiting = Locked(0)
        let results = await withTaskGroup(of: PasswordVerification.self) { group in
            for _ in 0..<4 {
                group.addTask { await hasher.verify(PasswordHashVector.staple, against: hash) }
            }
            // Sample the queue while the verifications run (not a timing assertion).
            while pool.metrics.completed < 5 {
                let waiting = pool.metrics.waiting
                mostWaiting.withLock { $0 = max($0, waiting) }
                #expect(pool.metrics.running <= 1)
                try? await Task.sleep(for: .milliseconds(2))
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: .match(needsRehash: false), count: 4))
        #expect(pool.metrics.peakRunning == 1)
        #expect(pool.metrics.completed == 5)
        #expect(mostWaiting.value >= 1)
    }

    /// While four hashes queue on one thread, an unrelated task still runs and finishes first.
    @Test func cooperativePoolStaysFreeWhileHashing() async throws {
        let pool = BlockingWorkPool(width: 1)
        let hasher = Argon2PasswordHasher(parameters: .owasp, limits: .standard, pool: pool)
        let hashes = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<4 { group.addTask { try await hasher.hash("password \(index)") } }
            #expect(await Polling.until { pool.metrics.running == 1 && pool.metrics.waiting >= 1 })
            let completedWhenProbeRan = await Task { pool.metrics.completed }.value
            #expect(completedWhenProbeRan < 4)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(hashes.count == 4)
        #expect(pool.metrics.peakRunning == 1)
    }
}
