internal import Dispatch
internal import Synchronization

/// The FIFO of jobs shared by a `BlockingWorkPool`'s threads.
///
/// Callers enqueue from async code (never blocking: one short `Mutex` section); the pool's
/// dedicated threads sleep on a semaphore and take jobs in submission order. A job that is
/// cancelled before a thread takes it is removed and told so.
final class BlockingWorkQueue: Sendable {
    /// One unit of work, plus how to tell its caller it will never run.
    struct Job: Sendable {
        /// Does the work and returns how to hand its result to the caller, so that the
        /// counters are updated before the caller resumes.
        let run: @Sendable () -> @Sendable () -> Void
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var nextID: UInt64 = 0
        /// IDs handed out whose job is not yet enqueued (a cancellation may arrive first).
        var announced: Set<UInt64> = []
        var cancelledEarly: Set<UInt64> = []
        /// Submission order; IDs whose job was cancelled are skipped when reached.
        var order: [UInt64] = []
        var head = 0
        var pending: [UInt64: Job] = [:]
        var running = 0
        var peakRunning = 0
        var completed = 0
        var isClosed = false

        /// Drops consumed IDs from the front of `order` once they dominate it (amortised O(1)).
        mutating func compactIfNeeded() {
            guard head > 64, head * 2 > order.count else { return }
            order.removeFirst(head)
            head = 0
        }
    }

    private let state = Mutex(State())
    /// Counts wake-ups owed to the threads: one per enqueued job, one per thread at close.
    private let wakeUps = DispatchSemaphore(value: 0)

    /// A fresh job ID; pass it to `enqueue` and, from a cancellation handler, to `cancel`.
    func makeID() -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.announced.insert(id)
            return id
        }
    }

    /// Appends a job, or cancels it at once when `cancel(id)` came first or the queue is closed.
    func enqueue(_ job: Job, id: UInt64) {
        let accepted = state.withLock { state in
            state.announced.remove(id)
            if state.cancelledEarly.remove(id) != nil || state.isClosed { return false }
            state.order.append(id)
            state.pending[id] = job
            return true
        }
        if accepted { wakeUps.signal() } else { job.cancel() }
    }

    /// Removes a job that no thread has taken yet and tells its caller; no effect once it runs.
    func cancel(_ id: UInt64) {
        let job: Job? = state.withLock { state in
            if let job = state.pending.removeValue(forKey: id) { return job }
            if state.announced.contains(id) { state.cancelledEarly.insert(id) }
            return nil
        }
        job?.cancel()
    }

    /// The loop of one pool thread: runs jobs until the queue is closed and drained.
    func serve() {
        while true {
            wakeUps.wait()
            guard let job = takeNext() else {
                if state.withLock({ $0.isClosed && $0.pending.isEmpty }) { return }
                continue  // the job this wake-up was for has been cancelled
            }
            let deliver = job.run()
            state.withLock { state in
                state.running -= 1
                state.completed += 1
            }
            deliver()
        }
    }

    /// Stops accepting jobs and lets `threads` threads leave `serve()` once the queue is empty.
    func close(threads: Int) {
        state.withLock { $0.isClosed = true }
        for _ in 0..<threads { wakeUps.signal() }
    }

    /// Jobs running, waiting, the most that ever ran at once, and how many finished.
    var metrics: BlockingWorkPool.Metrics {
        state.withLock { state in
            BlockingWorkPool.Metrics(
                running: state.running, waiting: state.pending.count, peakRunning: state.peakRunning,
                completed: state.completed)
        }
    }

    private func takeNext() -> Job? {
        state.withLock { state in
            while state.head < state.order.count {
                let id = state.order[state.head]
                state.head += 1
                if let job = state.pending.removeValue(forKey: id) {
                    state.running += 1
                    state.peakRunning = max(state.peakRunning, state.running)
                    state.compactIfNeeded()
                    return job
                }
            }
            state.compactIfNeeded()
            return nil
        }
    }
}
