internal import CEventLoop
internal import Glibc
internal import Synchronization

/// One thread with one epoll set, running the Swift tasks that prefer it (a `TaskExecutor`), the
/// sockets they wait for, and the sources attached to it (an HTTP daemon). A server has one loop
/// per core (`EventLoopGroup`); a request is read, handled and answered on one of them:
/// libmicrohttpd's callbacks run inside `EventLoopSource.run()`, the request's task is enqueued
/// here, its statements wait for their sockets here (`wait(for:)`), and its response is written
/// by the next `run()` of the same daemon — no hand-off to another thread per request or per
/// statement (docs/persistence.md, "Threads").
///
/// Nothing run here may block: libpq connections are non-blocking, password hashing has its own
/// threads and resumes its caller here. Waiting for a socket is thread-safe, so a caller on
/// another executor still works (it just hops).
///
/// Lifecycle: the loop's thread starts in `init` and runs until `shutdown()`, which stops it and
/// joins it. Whoever creates a loop owns it and shuts it down, after closing what runs on it
/// (pools, daemons). After `shutdown()` jobs still arriving (a task that preferred the loop) run
/// on the global executor, waiting for a socket returns `false` at once, and `execute` refuses.
///
/// `@unchecked Sendable`: the state shared with other threads is in a `Mutex`; `sources` is read
/// and written only on the loop's own thread; the epoll and eventfd descriptors are fixed at init
/// and closed only in `deinit`, when no thread uses the loop any more.
package final class EventLoop: TaskExecutor, @unchecked Sendable {
    private struct Shared {
        var jobs: [UnownedJob] = []
        /// Closures to run on the loop's thread (`execute`).
        var work: [@Sendable () -> Void] = []
        /// The loop is in (or about to enter) a blocking epoll_wait: new work must wake it.
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

    /// A source attached to this loop; touched only on the loop's thread.
    private struct Attached {
        let fd: Int32
        let source: any EventLoopSource
        /// `run()` is due at the next turn (its descriptor was ready, or `runSoon` asked).
        var due: Bool
    }

    /// This loop's place in its group (0 for a lone loop); names its thread `passkey-loop-<index>`.
    package let index: Int
    private let epoll: Int32
    private let wakeFD: Int32
    private let shared = Mutex(Shared())
    /// The attached sources (one or two: a daemon); only the loop's thread reads or writes them.
    private var sources: [Attached] = []

    /// Creates the loop and starts its thread.
    package init(index: Int = 0) {
        self.index = index
        epoll = passkey_epoll_create()
        wakeFD = passkey_eventfd_create()
        precondition(epoll >= 0 && wakeFD >= 0, "epoll or eventfd unavailable")
        precondition(passkey_epoll_add_level(epoll, wakeFD) == 0, "cannot watch the loop's eventfd")
        var thread = pthread_t()
        let loop = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<EventLoop>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, loop)
        precondition(created == 0, "cannot start an event loop thread")
        shared.withLock { $0.thread = thread }
    }

    deinit {
        close(epoll)
        close(wakeFD)
    }

    /// The loop whose thread is running the caller, or nil off every loop's thread.
    package static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentLoopKey) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// True when the caller runs on this loop's thread.
    package var inEventLoop: Bool { pthread_getspecific(currentLoopKey) == Unmanaged.passUnretained(self).toOpaque() }

    /// Stops the loop and waits for its thread to end (`pthread_join`). Called on the loop's own
    /// thread (a task running here), it cannot wait for itself: the thread is then detached and
    /// ends once the current job returns. Calling it again does nothing. Detach the sources first.
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

    /// Runs `work` on the loop's thread at its next turn (in order with other work and jobs).
    /// Returns false, and never runs it, once the loop has stopped.
    @discardableResult
    package func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        let (wake, accepted) = shared.withLock { state in
            if state.stopped || state.stopping { return (false, false) }
            state.work.append(work)
            defer { state.sleeping = false }
            return (state.sleeping, true)
        }
        if wake { passkey_eventfd_signal(wakeFD) }
        return accepted
    }

    // MARK: - Sources

    /// Watches `fd` (level-triggered, for input) and calls `source.run()` on this thread whenever
    /// it is readable, after `runSoon(fd)`, and when `source.timeoutMilliseconds()` has passed.
    /// Call on the loop's thread; `detach` before closing the descriptor.
    package func attach(_ source: any EventLoopSource, fd: Int32) {
        precondition(inEventLoop, "attach a source on its loop's thread")
        precondition(passkey_epoll_add_level(epoll, fd) == 0, "cannot watch descriptor \(fd)")
        sources.append(Attached(fd: fd, source: source, due: true))
    }

    /// Stops watching `fd`. Call on the loop's thread.
    package func detach(fd: Int32) {
        precondition(inEventLoop, "detach a source on its loop's thread")
        guard let position = sources.firstIndex(where: { $0.fd == fd }) else { return }
        sources.remove(at: position)
        _ = passkey_epoll_remove(epoll, fd)
    }

    /// Makes the source on `fd` run at this turn's end even if its descriptor is not ready (after
    /// a change it must act on, such as a resumed connection). Call on the loop's thread.
    package func runSoon(fd: Int32) {
        for position in sources.indices where sources[position].fd == fd { sources[position].due = true }
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
        pthread_setspecific(currentLoopKey, Unmanaged.passUnretained(self).toOpaque())
        passkey_thread_set_name("passkey-loop-\(index)")
        var ready = [Int32](repeating: 0, count: 64)
        // Jobs and work are taken by swapping arrays, so neither side copies or allocates per turn.
        var jobs: [UnownedJob] = []
        var work: [@Sendable () -> Void] = []
        while true {
            // Run every job there is, then every due source (which may enqueue more jobs: a
            // request's task), until nothing is left to do.
            while true {
                shared.withLock { state in
                    swap(&jobs, &state.jobs)
                    swap(&work, &state.work)
                }
                if jobs.isEmpty, work.isEmpty {
                    if runDueSources() { continue }
                    break
                }
                for item in work { item() }
                work.removeAll(keepingCapacity: true)
                for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
                jobs.removeAll(keepingCapacity: true)
            }
            // `stopping` is read in the lock taken here anyway (no extra lock per turn).
            let (block, stopping) = shared.withLock { state -> (Bool, Bool) in
                state.sleeping = state.jobs.isEmpty && state.work.isEmpty && !state.stopping
                return (state.sleeping, state.stopping)
            }
            if stopping { break }
            let timeout = block ? sourcesTimeout() : 0
            let count = ready.withUnsafeMutableBufferPointer { buffer in
                passkey_epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), timeout)
            }
            shared.withLock { $0.sleeping = false }
            if count == 0, block {
                // A source's deadline passed (libmicrohttpd's idle timeouts): let each look.
                for position in sources.indices { sources[position].due = true }
            }
            guard count > 0 else { continue }
            var resumed: [UnsafeContinuation<Bool, Never>] = []
            var woken = false
            for fd in ready[0..<Int(count)] {
                if fd == wakeFD {
                    woken = true
                } else {
                    for position in sources.indices where sources[position].fd == fd { sources[position].due = true }
                }
            }
            shared.withLock { state in
                for fd in ready[0..<Int(count)] where fd != wakeFD {
                    if let waiter = state.waiting.removeValue(forKey: fd) { resumed.append(waiter) }
                }
            }
            if woken { passkey_eventfd_drain(wakeFD) }
            for waiter in resumed { waiter.resume(returning: true) }
        }
        // Stopped: from now on jobs go to the global executor and socket waits return false.
        let (left, waiters) = shared.withLock { state in
            state.stopped = true
            defer {
                state.jobs = []
                state.work = []
                state.waiting = [:]
            }
            return (state.jobs, Array(state.waiting.values))
        }
        sources = []
        for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// Runs every source that is due; returns whether any ran.
    private func runDueSources() -> Bool {
        var ran = false
        var position = 0
        // By position: a source's `run()` may attach or detach (the array may change under it).
        while position < sources.count {
            if sources[position].due {
                sources[position].due = false
                let source = sources[position].source
                source.run()
                ran = true
            }
            position += 1
        }
        return ran
    }

    /// The earliest of the sources' deadlines in milliseconds (-1: none, wait for an event).
    private func sourcesTimeout() -> Int32 {
        var earliest: Int?
        for attached in sources {
            guard let milliseconds = attached.source.timeoutMilliseconds() else { continue }
            earliest = min(earliest ?? milliseconds, milliseconds)
        }
        guard let earliest else { return -1 }
        return Int32(clamping: max(0, earliest))
    }
}

/// Something an `EventLoop` drives from its thread: a descriptor it watches (an HTTP daemon's
/// epoll set) and the work to do when it is ready. Called only on the loop's thread.
package protocol EventLoopSource: AnyObject {
    /// Does what is ready (reads, callbacks, writes); must not block.
    func run()
    /// Milliseconds until `run()` is due even without an event (nil: no deadline).
    func timeoutMilliseconds() -> Int?
}

/// The thread-local slot that names the loop a thread runs (set by each loop's thread).
private let currentLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "cannot create the event loop's thread key")
    return key
}()
