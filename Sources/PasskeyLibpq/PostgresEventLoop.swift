internal import CLibpq
internal import Glibc
internal import Synchronization

/// One thread that waits for every pooled connection's socket with epoll and runs the Swift
/// tasks that prefer it (a `TaskExecutor`). A task on this loop sends a query without blocking,
/// suspends until the socket is readable, and is resumed on this same thread, where it goes on
/// with the next step: no hand-off to another thread per statement. The HTTP layer starts its
/// request tasks with this executor, so a sign-in's statements, its verification and its
/// response all run here without waking another thread (docs/persistence.md, "Threads").
///
/// Nothing run here may block: libpq connections are non-blocking, password hashing has its own
/// threads. Waiting for a socket is thread-safe, so a caller on another executor still works
/// (it just hops).
///
/// Lifecycle: the loop's thread starts in `init` and runs until `shutdown()`, which stops it and
/// joins it. Whoever creates a loop owns it and shuts it down: `PostgresConnectionPool` creates
/// and owns one when it is given none (and shuts it down in `close()`); a caller that passes its
/// own loop to a pool or connection shuts it down itself, after closing them. After `shutdown()`
/// jobs still arriving (a task that preferred the loop) run on the global executor, and waiting
/// for a socket returns `false` at once.
///
/// `@unchecked Sendable`: the mutable state is in a `Mutex`; the epoll and eventfd descriptors
/// are fixed at init and closed only in `deinit`, when no thread uses the loop any more.
package final class PostgresEventLoop: TaskExecutor, @unchecked Sendable {
    private struct Shared {
        var jobs: [UnownedJob] = []
        /// The loop is in (or about to enter) a blocking epoll_wait: a new job must wake it.
        var sleeping = false
        /// fd → the task waiting for it to become ready.
        var waiting: [Int32: UnsafeContinuation<Bool, Never>] = [:]
        /// fds added to epoll (later waits re-arm them).
        var registered: Set<Int32> = []
        /// `shutdown()` was called: the thread leaves its loop at the next turn.
        var stopping = false
        /// The thread left its loop: jobs go to the global executor, socket waits return at once.
        var stopped = false
        /// The loop's thread, until `shutdown()` joins (or detaches) it.
        var thread: pthread_t?
    }

    private let epoll: Int32
    private let wakeFD: Int32
    private let shared = Mutex(Shared())

    /// Creates the loop and starts its thread.
    package init() {
        epoll = passkey_epoll_create()
        wakeFD = passkey_eventfd_create()
        precondition(epoll >= 0 && wakeFD >= 0, "epoll or eventfd unavailable")
        precondition(passkey_epoll_add_level(epoll, wakeFD) == 0, "cannot watch the loop's eventfd")
        var thread = pthread_t()
        let loop = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<PostgresEventLoop>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, loop)
        precondition(created == 0, "cannot start the PostgreSQL event loop thread")
        shared.withLock { $0.thread = thread }
    }

    deinit {
        close(epoll)
        close(wakeFD)
    }

    /// Stops the loop and waits for its thread to end (`pthread_join`). Called on the loop's own
    /// thread (a task running here), it cannot wait for itself: the thread is then detached and
    /// ends once the current job returns. Calling it again does nothing.
    package func shutdown() {
        let thread = shared.withLock { state -> pthread_t? in
            state.stopping = true
            defer { state.thread = nil }
            return state.thread
        }
        guard let thread else { return }
        passkey_eventfd_signal(wakeFD)
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// False once the loop's thread has left its loop (after `shutdown()`).
    package var isRunning: Bool { shared.withLock { !$0.stopped } }

    // MARK: - TaskExecutor

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (wake, stopped) = shared.withLock { state in
            if state.stopped { return (false, true) }
            state.jobs.append(job)
            defer { state.sleeping = false }
            return (state.sleeping, false)
        }
        if stopped { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        if wake { passkey_eventfd_signal(wakeFD) }
    }

    // MARK: - Sockets

    /// Suspends until `fd` is readable (or writable, with `writable`), or has an error or hang-up,
    /// and returns true; returns false when the loop has stopped (at once, or for a waiter
    /// when `shutdown()` ends the loop). One waiter per fd at a time (a connection runs one
    /// statement at a time).
    @discardableResult
    package func wait(for fd: Int32, writable: Bool = false) async -> Bool {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
            let add = shared.withLock { state -> Bool? in
                if state.stopped { return nil }
                precondition(state.waiting[fd] == nil, "two waiters for one socket")
                state.waiting[fd] = continuation
                return state.registered.insert(fd).inserted
            }
            guard let add else { return continuation.resume(returning: false) }
            if passkey_epoll_arm(epoll, fd, writable ? passkey_epoll_out : passkey_epoll_in, add ? 1 : 0) != 0 {
                // Not watchable (closed socket): let the caller find the error through libpq.
                let waiter = shared.withLock { $0.waiting.removeValue(forKey: fd) }
                waiter?.resume(returning: true)
            }
        }
    }

    /// Forgets `fd` before its connection closes it (a reused fd number starts afresh).
    package func forget(_ fd: Int32) {
        let waiter = shared.withLock { state -> UnsafeContinuation<Bool, Never>? in
            guard state.registered.remove(fd) != nil else { return nil }
            return state.waiting.removeValue(forKey: fd)
        }
        _ = passkey_epoll_remove(epoll, fd)
        waiter?.resume(returning: true)
    }

    // MARK: - The loop

    private func run() {
        var ready = [Int32](repeating: 0, count: 64)
        // Jobs are taken by swapping arrays, so neither side copies or allocates per turn.
        var jobs: [UnownedJob] = []
        while true {
            // Run every job there is; jobs resumed by those jobs run in the same turn.
            while true {
                shared.withLock { swap(&jobs, &$0.jobs) }
                if jobs.isEmpty { break }
                for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
                jobs.removeAll(keepingCapacity: true)
            }
            // `stopping` is read in the lock taken here anyway (no extra lock per turn: the
            // loop turns once per batch of jobs, and every lock it takes is one that MHD's
            // threads, enqueueing request tasks, may have to wait for).
            let (block, stopping) = shared.withLock { state -> (Bool, Bool) in
                state.sleeping = state.jobs.isEmpty && !state.stopping
                return (state.sleeping, state.stopping)
            }
            if stopping { break }
            let count = ready.withUnsafeMutableBufferPointer { buffer in
                passkey_epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), block ? -1 : 0)
            }
            shared.withLock { $0.sleeping = false }
            guard count > 0 else { continue }
            var resumed: [UnsafeContinuation<Bool, Never>] = []
            shared.withLock { state in
                for fd in ready[0..<Int(count)] where fd != wakeFD {
                    if let waiter = state.waiting.removeValue(forKey: fd) { resumed.append(waiter) }
                }
            }
            if ready[0..<Int(count)].contains(wakeFD) { passkey_eventfd_drain(wakeFD) }
            for waiter in resumed { waiter.resume(returning: true) }
        }
        // Stopped: from now on jobs go to the global executor and socket waits return false.
        let (left, waiters) = shared.withLock { state in
            state.stopped = true
            defer {
                state.jobs = []
                state.waiting = [:]
            }
            return (state.jobs, Array(state.waiting.values))
        }
        for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        for waiter in waiters { waiter.resume(returning: false) }
    }
}
