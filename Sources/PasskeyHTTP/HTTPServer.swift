import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: an epoll thread pool reads requests (bodies capped at
/// `maximumBodyBytes`), and each complete request runs the async handler in its own `Task`
/// while the connection is suspended, so no libmicrohttpd thread ever waits for a handler.
///
/// Lifecycle: `init` → `start()` → … → `shutdown(gracePeriod:)`. Call `shutdown` before
/// releasing a started server.
package final class HTTPServer: Sendable {
    /// Answers one request.
    package typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// The mutable state shared between libmicrohttpd's threads and the server's callers.
    struct State {
        enum Phase {
            case idle
            case starting
            case running(DaemonHandle)
            case stopping
            case stopped
        }

        var phase = Phase.idle
        var boundPort = 0
        /// Requests whose request line arrived and whose completion was not yet reported.
        var openRequests = 0
        /// Handlers whose connection is suspended (until their response was queued).
        var suspended: [ObjectIdentifier: ResponseSlot] = [:]
        /// The last few libmicrohttpd log messages, with `errno` when each was logged.
        var diagnostics: [(message: String, errno: Int32)] = []
        /// Enforces `headDeadlines` while the daemon runs.
        var sweeper: Task<Void, Never>?
        /// Callers of `waitUntil` waiting for a change of the state above (no polling).
        var changeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let configuration: Configuration
    let handler: Handler
    let state = Mutex(State())
    /// Open connections and the deadlines of the request heads they still owe.
    let headDeadlines: HeadDeadlines
    /// The per-address connection limit.
    let admission: ConnectionAdmission

    package init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
        self.headDeadlines = HeadDeadlines(timeout: .seconds(configuration.requestHeadTimeoutSeconds))
        self.admission = ConnectionAdmission(
            limit: configuration.maximumConnectionsPerAddress, isUnlimited: configuration.isUnlimitedPeer)
    }

    deinit {
        // Best effort for a server released without `shutdown`: a running handler task keeps
        // the server alive, so no connection is suspended here.
        let daemon: DaemonHandle? = state.withLock { state in
            if case .running(let daemon) = state.phase { daemon } else { nil }
        }
        daemon?.quiesce()
        daemon?.stop()
        state.withLock { $0.sweeper?.cancel() }
    }

    /// The bound port (the actual one when the configuration asked for port 0); 0 before
    /// `start()`.
    package var port: Int { state.withLock { $0.boundPort } }

    /// Requests received but not yet completed (for tests and metrics).
    package var openRequestCount: Int { state.withLock { $0.openRequests } }

    /// Connections libmicrohttpd has accepted and not yet closed (for tests and metrics).
    package var openConnectionCount: Int { headDeadlines.count }

    /// Binds the configured address and starts the worker threads.
    package func start() throws(HTTPServerError) {
        try configuration.validate()
        try state.withLock { state throws(HTTPServerError) in
            guard case .idle = state.phase else { throw .alreadyStarted }
            state.phase = .starting
            state.diagnostics = []
        }
        do throws(HTTPServerError) {
            let daemon = try launch()
            // Holds only the deadlines, not the server, so a server released without shutdown
            // can still be deinitialised (which cancels this task).
            let sweeper = Task.detached { [headDeadlines] in await headDeadlines.sweep(every: .milliseconds(250)) }
            state.withLock { state in
                state.phase = .running(daemon)
                state.boundPort = daemon.boundPort
                state.sweeper = sweeper
            }
        } catch {
            state.withLock { $0.phase = .idle }
            throw error
        }
    }

    /// Stops accepting connections at once, lets requests in flight finish (their handlers
    /// complete and their responses are sent) for up to `gracePeriod`, then stops the daemon.
    /// Handlers still running after the grace period are cancelled and their clients get
    /// `shutdownResponse()`. Idempotent; a concurrent second call returns once the first is done.
    package func shutdown(gracePeriod: Duration) async {
        enum Step {
            case stop(DaemonHandle)
            case waitForOther
            case done
        }
        let step: Step = state.withLock { state in
            switch state.phase {
            case .running(let daemon):
                state.phase = .stopping
                return .stop(daemon)
            case .starting, .stopping:
                return .waitForOther
            case .idle, .stopped:
                state.phase = .stopped
                return .done
            }
        }
        switch step {
        case .done:
            return
        case .waitForOther:
            _ = await waitUntil(.now + gracePeriod + .seconds(10)) { state in
                if case .stopped = state.phase { true } else { false }
            }
        case .stop(let daemon):
            daemon.quiesce()
            _ = await waitUntil(.now + gracePeriod) { $0.openRequests == 0 }
            let late = state.withLock { Array($0.suspended.values) }
            for slot in late {
                slot.cancelTask()
                slot.complete(with: configuration.shutdownResponse())
            }
            // Resumed connections are handed back to libmicrohttpd's threads; wait for them to
            // queue (and normally send) their responses, because stopping the daemon while a
            // connection is still suspended aborts the process.
            let resumed = await waitUntil(.now + .seconds(late.isEmpty ? 1 : 5)) { $0.suspended.isEmpty }
            if resumed {
                daemon.stop()
            }
            changeState { state in
                state.phase = .stopped
                state.sweeper?.cancel()
                state.sweeper = nil
            }
        }
    }

    /// Waits until `condition` holds or `deadline` passes (or the task is cancelled), looking again
    /// at every change of the state (`changeState`); returns whether the condition held.
    private func waitUntil(
        _ deadline: ContinuousClock.Instant, _ condition: @escaping (borrowing State) -> Bool
    ) async -> Bool {
        // Woken by every change that can make a condition true (`changeState`), by the deadline
        // and by cancellation; then the condition is looked at again.
        let timer = Task { [self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            wakeWaiters()
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            while true {
                if state.withLock({ condition($0) }) { return true }
                if ContinuousClock.now >= deadline || Task.isCancelled { return false }
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let registered = state.withLock { state in
                        // Registered under the lock that every change takes: no wake-up is lost.
                        // Cancellation is looked at here too: `onCancel` wakes under this lock, so a
                        // cancel that lands between the check above and this one is not lost.
                        guard !condition(state), ContinuousClock.now < deadline, !Task.isCancelled else {
                            return false
                        }
                        state.changeWaiters.append(continuation)
                        return true
                    }
                    if !registered { continuation.resume() }
                }
            }
        } onCancel: {
            wakeWaiters()
        }
    }

    /// Changes the state and wakes whoever waits in `waitUntil`, so they look again.
    func changeState(_ change: (inout State) -> Void) {
        let waiters = state.withLock { state in
            change(&state)
            defer { state.changeWaiters = [] }
            return state.changeWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func wakeWaiters() {
        changeState { _ in }
    }

    /// Starts libmicrohttpd on the configured address.
    private func launch() throws(HTTPServerError) -> DaemonHandle {
        let host = configuration.host
        let port = configuration.port
        guard let address = SocketAddress(host: host, port: UInt16(port)) else { throw .invalidHost(host) }
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        flags |= MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 {
            flags |= (address.isIPv6Unspecified ? MHD_USE_DUAL_STACK : MHD_USE_IPv6).rawValue
        }
        let daemon = address.withSockaddr { sockaddr in
            startDaemon(flags: flags, address: sockaddr)
        }
        if let daemon { return DaemonHandle(daemon) }
        let diagnostics = state.withLock { $0.diagnostics }
        let message = diagnostics.last?.message ?? "libmicrohttpd could not start"
        switch diagnostics.last(where: { $0.errno != 0 })?.errno {
        case EADDRINUSE:
            throw .addressInUse(host: host, port: port)
        case EADDRNOTAVAIL, EACCES, EAFNOSUPPORT:
            throw .addressUnavailable(host: host, port: port, diagnostic: message)
        default:
            throw .startFailed(host: host, port: port, diagnostic: message)
        }
    }

    /// Records one libmicrohttpd log message (the last 16 are kept).
    func record(diagnostic message: String, errno code: Int32) {
        state.withLock { state in
            state.diagnostics.append((message, code))
            if state.diagnostics.count > 16 { state.diagnostics.removeFirst() }
        }
    }
}
