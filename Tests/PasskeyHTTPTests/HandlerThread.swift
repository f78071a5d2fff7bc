import Foundation

/// Runs the test servers' handler tasks on a thread of their own (`taskExecutor`), as the real
/// server runs its handlers on the database event loop. The suites of the whole package run in
/// one process on Swift's cooperative threads, two on a 2-core machine; CPU-heavy tests (RSA
/// keys, password hashes) can occupy both for seconds when the machine is busy too, and the
/// handlers queued behind them would miss the raw client's 10 s socket timeouts.
final class HandlerThread: TaskExecutor, @unchecked Sendable {
    static let shared = HandlerThread()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []  // Guarded by `condition`.

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "http-test-handlers"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
