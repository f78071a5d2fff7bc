internal import Foundation

/// Runs blocking, CPU-heavy work (password hashing) on `width` dedicated threads, so that it
/// never occupies Swift's cooperative thread pool and a flood of it queues instead of starving
/// other requests.
///
/// A caller of `run` suspends (its continuation waits in a FIFO, holding no thread) until one of
/// the pool's threads is free; that thread runs the work and resumes the caller with the result.
/// Work comes in two priorities: a free thread always takes the oldest `interactive` job before
/// any `bulk` one. Each priority holds at most `waitingLimit` waiting jobs; beyond that `run`
/// throws `.full` at once, so a flood queues boundedly and callers can answer "busy".
/// Dedicated `Thread`s rather than dispatch queues: a serial dispatch queue does run blocking
/// work off Swift's width-limited cooperative threads (libdispatch gives it an overcommitting
/// worker), but it does not bound how many run at once; `width` threads do, exactly.
package final class BlockingWorkPool: Sendable {
    /// A snapshot of the pool's load, for tests and diagnostics.
    package struct Metrics: Hashable, Sendable {
        /// Jobs running on a pool thread now.
        package var running: Int
        /// Jobs waiting for a free thread.
        package var waiting: Int
        /// The most jobs that ever ran at once (never more than `width`).
        package var peakRunning: Int
        /// Jobs that have finished.
        package var completed: Int
        /// Jobs refused because their priority's queue was full.
        package var refused: Int
    }

    /// Which waiting work a free thread takes first.
    package enum Priority: Int, Sendable {
        /// Someone is waiting for this answer to sign in.
        case interactive = 0
        /// Everything else (new hashes for sign-ups, re-hashes).
        case bulk = 1
    }

    /// Why `run` did not run the work.
    package enum RunError: Error, Hashable, Sendable {
        /// The task was cancelled before the work started.
        case cancelled
        /// `waitingLimit` jobs of this priority were already waiting.
        case full
    }

    /// One thread fewer than the machine has cores (at least one), leaving a core for the rest.
    package static var defaultWidth: Int { max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }

    /// How many jobs may run at once: the number of dedicated threads.
    package let width: Int
    /// How many jobs of one priority may wait for a thread.
    package let waitingLimit: Int
    private let queue: BlockingWorkQueue

    /// Starts `width` threads named `name-0`, `name-1`, …; they end when the pool is released.
    package init(width: Int = BlockingWorkPool.defaultWidth, waitingLimit: Int = 64, name: String = "blocking-work") {
        precondition(width >= 1, "a BlockingWorkPool needs at least one thread")
        precondition(waitingLimit >= 0, "a BlockingWorkPool's waiting limit cannot be negative")
        self.width = width
        self.waitingLimit = waitingLimit
        let queue = BlockingWorkQueue(lanes: 2, waitingLimit: waitingLimit)
        self.queue = queue
        for index in 0..<width {
            let thread = Thread { [queue] in queue.serve() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    deinit {
        // No caller is suspended in `run` here (it retains the pool), so the queue is empty.
        queue.close(threads: width)
    }

    /// The current load.
    package var metrics: Metrics { queue.metrics }

    /// Runs `work` on a pool thread once one is free (first come, first served within a
    /// priority, `interactive` before `bulk`) and returns its result; the calling task is
    /// suspended meanwhile, holding no thread.
    ///
    /// Throws `.full` at once when `waitingLimit` jobs of this priority already wait, and
    /// `.cancelled` when the task is cancelled before the work has started; work that has
    /// started always runs to completion.
    package func run<Value: Sendable>(
        priority: Priority = .interactive, _ work: @escaping @Sendable () -> Value
    ) async throws(RunError) -> Value {
        let queue = self.queue
        guard let id = queue.reserve(lane: priority.rawValue) else { throw .full }
        let result: Value? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                queue.enqueue(
                    BlockingWorkQueue.Job(
                        run: {
                            let result = work()
                            return { continuation.resume(returning: result) }
                        },
                        cancel: { continuation.resume(returning: nil) }),
                    id: id)
            }
        } onCancel: {
            queue.cancel(id)
        }
        guard let result else { throw .cancelled }
        return result
    }
}
