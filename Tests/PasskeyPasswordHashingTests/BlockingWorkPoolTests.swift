import Foundation
import PasskeyPasswordHashing
import Testing

/// The bounded pool: FIFO, never more than `width` jobs at once, off the cooperative pool.
@Suite(.timeLimit(.minutes(5))) struct BlockingWorkPoolTests {
    @Test func returnsTheResultOfTheWork() async throws {
        let pool = BlockingWorkPool(width: 2)
        let value = try await pool.run { 6 * 7 }
        #expect(value == 42)
        #expect(pool.width == 2)
    }

    @Test func neverRunsMoreThanWidthJobsAtOnce() async throws {
        let pool = BlockingWorkPool(width: 2)
        let inFlight = Locked((now: 0, most: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await pool.run {
                        inFlight.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        Thread.sleep(forTimeInterval: 0.005)
                        inFlight.withLock { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inFlight.value.most <= 2)
        #expect(pool.metrics.peakRunning <= 2)
        #expect(pool.metrics.completed == 8)
    }

    @Test func waitingCallersAreServedInArrivalOrder() async throws {
        let pool = BlockingWorkPool(width: 1)
        let gate = DispatchSemaphore(value: 0)
        let order = Locked<[Int]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pool.run { gate.wait() } }
            #expect(await Polling.until { pool.metrics.running == 1 })
            for index in 0..<5 {
                group.addTask { try await pool.run { order.withLock { $0.append(index) } } }
                #expect(await Polling.until { pool.metrics.waiting == index + 1 })
            }
            gate.signal()
            try await group.waitForAll()
        }
        #expect(order.value == [0, 1, 2, 3, 4])
    }

    /// More blocked jobs than the test process has cooperative threads: if the pool borrowed
    /// them, nothing else could run and this test would time out instead of passing.
    @Test func blockedJobsLeaveTheCooperativePoolFree() async throws {
        let width = 2 * max(2, BlockingWorkPool.defaultWidth + 1)
        let pool = BlockingWorkPool(width: width)
        let gate = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<width { group.addTask { try await pool.run { gate.wait() } } }
            #expect(await Polling.until { pool.metrics.running == width })
            let probe = await Task { 1 + 1 }.value
            #expect(probe == 2)
            #expect(pool.metrics.completed == 0)
            for _ in 0..<width { gate.signal() }
            try await group.waitForAll()
        }
        #expect(pool.metrics.completed == width)
    }

    @Test func cancellationWhileWaitingSkipsTheWork() async throws {
        let pool = BlockingWorkPool(width: 1)
        let gate = DispatchSemaphore(value: 0)
        let ran = Locked(false)
        let blocker = Task { try await pool.run { gate.wait() } }
        #expect(await Polling.until { pool.metrics.running == 1 })
        let waiter = Task { try await pool.run { ran.withLock { $0 = true } } }
        #expect(await Polling.until { pool.metrics.waiting == 1 })
        waiter.cancel()
        await #expect(throws: BlockingWorkPool.RunError.cancelled) { try await waiter.value }
        #expect(pool.metrics.waiting == 0)
        gate.signal()
        try await blocker.value
        #expect(ran.value == false)
        #expect(pool.metrics.completed == 1)
    }

    @Test func alreadyCancelledCallerDoesNotRun() async throws {
        let pool = BlockingWorkPool(width: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.run { 1 }
        }
        await #expect(throws: BlockingWorkPool.RunError.cancelled) { try await task.value }
        #expect(pool.metrics.completed == 0)
    }

    /// A flood beyond the waiting limit is refused at once instead of queueing without bound.
    @Test func beyondTheWaitingLimitWorkIsRefusedAtOnce() async throws {
        let pool = BlockingWorkPool(width: 1, waitingLimit: 2)
        let gate = DispatchSemaphore(value: 0)
        let blocker = Task { try await pool.run(priority: .bulk) { gate.wait() } }
        #expect(await Polling.until { pool.metrics.running == 1 })
        let waiting = (0..<2).map { _ in Task { try await pool.run(priority: .bulk) { 1 } } }
        #expect(await Polling.until { pool.metrics.waiting == 2 })
        await #expect(throws: BlockingWorkPool.RunError.full) { try await pool.run(priority: .bulk) { 1 } }
        #expect(pool.metrics.refused == 1)
        // The other priority has its own room.
        let interactive = Task { try await pool.run(priority: .interactive) { 2 } }
        #expect(await Polling.until { pool.metrics.waiting == 3 })
        gate.signal()
        try await blocker.value
        #expect(try await interactive.value == 2)
        for task in waiting { #expect(try await task.value == 1) }
        #expect(pool.metrics.refused == 1)
    }

    /// A sign-in's verification waiting behind a queue of sign-up hashes runs before all of them.
    @Test func interactiveWorkOvertakesWaitingBulkWork() async throws {
        let pool = BlockingWorkPool(width: 1, waitingLimit: 8)
        let gate = DispatchSemaphore(value: 0)
        let order = Locked<[String]>([])
        let blocker = Task { try await pool.run(priority: .bulk) { gate.wait() } }
        #expect(await Polling.until { pool.metrics.running == 1 })
        let bulk = (0..<3).map { index in
            Task { try await pool.run(priority: .bulk) { order.withLock { $0.append("bulk\(index)") } } }
        }
        #expect(await Polling.until { pool.metrics.waiting == 3 })
        let interactive = Task {
            try await pool.run(priority: .interactive) { order.withLock { $0.append("sign-in") } }
        }
        #expect(await Polling.until { pool.metrics.waiting == 4 })
        gate.signal()
        try await blocker.value
        try await interactive.value
        for task in bulk { try await task.value }
        #expect(order.value.first == "sign-in")
        #expect(order.value.count == 4)
    }
}
