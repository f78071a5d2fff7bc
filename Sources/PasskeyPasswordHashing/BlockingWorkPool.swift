internal import Foundation

/// Runs blocking, CPU-heavy work (password hashing) on `width` dedicated threads, so that it
/// never occupies Swift's cooperative thread pool and a flood of it queues instead of starving
/// other requests.
///
/// A caller of `run` suspends (its continuation waits in a FIFO, holding no thread) until one of
/// the pool's threads is free; that thread runs the work and resumes the caller with the result.
/// Dedicated `Thread`s rather than a `DispatchQueue`: on Linux, dispatch queues share worker
/// threads with the global queues that back Swift's executor.
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
    }

    /// One thread fewer than the machine has cores (at least one), leaving a core for the rest.
    package static var defaultWidth: Int { max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }

    /// How many jobs may run at once: the number of dedicated threads.
    package let width: Int
    private let queue = BlockingWorkQueue()

    /// Starts `width` threads named `name-0`, `name-1`, …; they end when the pool is released.
    package init(width: Int = BlockingWorkPool.defaultWidth, name: String = "blocking-work") {
        precondition(width >= 1, "a BlockingWorkPool needs at least one thread")
        self.width = width
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

    /// Runs `work` on a pool thread once one is free (first come, first served) and returns its
    /// result; the calling task is suspended meanwhile, holding no thread.
    ///
    /// Throws `CancellationError` when the task is cancelled before the work has started; work
    /// that has started always runs to completion.
    package func run<Value: Sendable>(
        _ work: @escaping @Sendable () -> Value
    ) async throws(CancellationError) -> Value {
        let queue = self.queue
        let id = queue.makeID()
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
        guard let result else { throw CancellationError() }
        return result
    }
}
