internal import Dispatch
internal import Synchronization

/// The jobs shared by a `BlockingWorkPool`'s threads, in priority lanes with a bounded wait.
///
/// Callers enqueue from async code (never blocking: one short `Mutex` section); the pool's
/// dedicated threads sleep on a semaphore and take the oldest job of the most urgent lane that
/// has one. Each lane holds at most `waitingLimit` jobs that no thread has taken yet; a caller
/// beyond that is refused at once (`reserve` returns nil). A job that is cancelled before a
/// thread takes it is removed and told so.
final class BlockingWorkQueue: Sendable {
    /// One unit of work, plus how to tell its caller it will never run.
    struct Job: Sendable {
        /// Does the work and returns how to hand its result to the caller, so that the
        /// counters are updated before the caller resumes.
        let run: @Sendable () -> @Sendable () -> Void
        let cancel: @Sendable () -> Void
    }

    private struct Lane {
        /// Submission order; IDs whose job was cancelled are skipped when reached.
        var order: [UInt64] = []
        var head = 0
        /// Reserved or enqueued, not yet taken by a thread: what the limit bounds.
        var waiting = 0

        /// Drops consumed IDs from the front of `order` once they dominate it (amortised O(1)).
        mutating func compactIfNeeded() {
            guard head > 64, head * 2 > order.count else { return }
            order.removeFirst(head)
            head = 0
        }
    }

    private struct State {
        var nextID: UInt64 = 0
        /// IDs handed out whose job is not yet enqueued (a cancellation may arrive first), with their lane.
        var announced: [UInt64: Int] = [:]
        var cancelledEarly: Set<UInt64> = []
        var lanes: [Lane]
        var pending: [UInt64: (job: Job, lane: Int)] = [:]
        var running = 0
        var peakRunning = 0
        var completed = 0
        var refused = 0
        var isClosed = false
    }

    /// How many jobs one lane may hold waiting.
    let waitingLimit: Int
    private let state: Mutex<State>
    /// Counts wake-ups owed to the threads: one per enqueued job, one per thread at close.
    private let wakeUps = DispatchSemaphore(value: 0)

    init(lanes: Int, waitingLimit: Int) {
        self.waitingLimit = waitingLimit
        self.state = Mutex(State(lanes: Array(repeating: Lane(), count: max(1, lanes))))
    }

    /// A fresh job ID in `lane` (0 is the most urgent), or nil when that lane already holds
    /// `waitingLimit` jobs. Pass the ID to `enqueue` and, from a cancellation handler, to `cancel`.
    func reserve(lane: Int) -> UInt64? {
        state.withLock { state in
            let lane = min(max(0, lane), state.lanes.count - 1)
            guard state.lanes[lane].waiting < waitingLimit else {
                state.refused += 1
                return nil
            }
            state.lanes[lane].waiting += 1
            let id = state.nextID
            state.nextID += 1
            state.announced[id] = lane
            return id
        }
    }

    /// Appends a job, or cancels it at once when `cancel(id)` came first or the queue is closed.
    func enqueue(_ job: Job, id: UInt64) {
        let accepted = state.withLock { state in
            guard let lane = state.announced.removeValue(forKey: id) else { return false }
            if state.cancelledEarly.remove(id) != nil || state.isClosed {
                state.lanes[lane].waiting -= 1
                return false
            }
            state.lanes[lane].order.append(id)
            state.pending[id] = (job, lane)
            return true
        }
        if accepted { wakeUps.signal() } else { job.cancel() }
    }

    /// Removes a job that no thread has taken yet and tells its caller; no effect once it runs.
    func cancel(_ id: UInt64) {
        let job: Job? = state.withLock { state in
            if let (job, lane) = state.pending.removeValue(forKey: id) {
                state.lanes[lane].waiting -= 1
                return job
            }
            if state.announced[id] != nil { state.cancelledEarly.insert(id) }
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

    /// Jobs running, waiting, the most that ever ran at once, how many finished and were refused.
    var metrics: BlockingWorkPool.Metrics {
        state.withLock { state in
            BlockingWorkPool.Metrics(
                running: state.running, waiting: state.pending.count, peakRunning: state.peakRunning,
                completed: state.completed, refused: state.refused)
        }
    }

    /// The oldest job of the most urgent non-empty lane.
    private func takeNext() -> Job? {
        state.withLock { state in
            for index in state.lanes.indices {
                while state.lanes[index].head < state.lanes[index].order.count {
                    let id = state.lanes[index].order[state.lanes[index].head]
                    state.lanes[index].head += 1
                    if let (job, _) = state.pending.removeValue(forKey: id) {
                        state.lanes[index].waiting -= 1
                        state.running += 1
                        state.peakRunning = max(state.peakRunning, state.running)
                        state.lanes[index].compactIfNeeded()
                        return job
                    }
                }
                state.lanes[index].compactIfNeeded()
            }
            return nil
        }
    }
}
