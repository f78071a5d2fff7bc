import CMicroHTTPD
import PasskeyEventLoop
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd with one daemon per event loop (`LoopDaemon`): every
/// loop's daemon listens on the same address (`SO_REUSEPORT`), and a request is read, handled
/// (its handler task runs on the same loop) and answered on one thread. Bodies are capped at
/// `maximumBodyBytes`; the connection is suspended while its handler runs, so no loop ever waits
/// for a handler.
///
/// Lifecycle: `init` → `start()` → … → `shutdown(gracePeriod:)`. A started server lives (its
/// daemons hold it) until `shutdown` has stopped them.
package final class HTTPServer: Sendable {
    /// Answers one request.
    package typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// The mutable state shared between the loops and the server's callers.
    struct State {
        enum Phase {
            case idle
            case starting
            case running([LoopDaemon])
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
        /// Callers of `waitUntil` waiting for a change of the state above (no polling).
        var changeWaiters: [CheckedContinuation<Void, Never>] = []
        /// The daemons of the current `start()`, for `openConnectionCount` (also while stopping).
        var daemons: [LoopDaemon] = []
    }

    let configuration: Configuration
    let handler: Handler
    let state = Mutex(State())
    /// The per-address connection limit, over every loop.
    let admission: ConnectionAdmission
    /// Open connections over every loop, against `maximumConnections`.
    private let openConnections = Atomic<Int>(0)
    /// The loops the daemons run on: the configuration's, or a group of the server's own
    /// (`threads` loops), shut down after the daemons stopped.
    private let loops: EventLoopGroup
    private let ownsLoops: Bool
    /// 503 problem+json for a client over `maximumConnections`, written raw on its socket.
    let overloaded: RawAnswer
    /// 408 problem+json for a body past its deadline, written raw on its socket.
    let bodyTimedOut: RawAnswer

    package init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
        self.admission = ConnectionAdmission(
            limit: configuration.maximumConnectionsPerAddress, isUnlimited: configuration.isUnlimitedPeer)
        if let loops = configuration.loops {
            self.loops = loops
            ownsLoops = false
        } else {
            loops = EventLoopGroup(count: max(1, min(configuration.threads, 1_024)))
            ownsLoops = true
        }
        overloaded = RawAnswer(configuration.overloaded())
        bodyTimedOut = RawAnswer(configuration.layerError(408))
    }

    deinit {
        if ownsLoops { loops.shutdown() }
    }

    /// The bound port (the actual one when the configuration asked for port 0); 0 before
    /// `start()`.
    package var port: Int { state.withLock { $0.boundPort } }

    /// How many event loops serve requests (one daemon each).
    package var eventLoopCount: Int { loops.loops.count }

    /// Requests received but not yet completed (for tests and metrics).
    package var openRequestCount: Int { state.withLock { $0.openRequests } }

    /// Connections libmicrohttpd has accepted and not yet closed, over every loop (for tests and
    /// metrics).
    package var openConnectionCount: Int {
        state.withLock { $0.daemons }.reduce(0) { $0 + $1.deadlines.count }
    }

    /// Binds the configured address on every loop and starts serving.
    package func start() throws(HTTPServerError) {
        try configuration.validate()
        try state.withLock { state throws(HTTPServerError) in
            guard case .idle = state.phase else { throw .alreadyStarted }
            state.phase = .starting
            state.diagnostics = []
        }
        do throws(HTTPServerError) {
            let daemons = try launch()
            changeState { state in
                state.phase = .running(daemons)
                state.daemons = daemons
                state.boundPort = daemons.first?.boundPort ?? 0
            }
        } catch {
            state.withLock { $0.phase = .idle }
            throw error
        }
    }

    /// Stops accepting connections at once (on every loop), lets requests in flight finish (their
    /// handlers complete and their responses are sent) for up to `gracePeriod`, then stops the
    /// daemons. Handlers still running after the grace period are cancelled and their clients get
    /// `shutdownResponse()`. Idempotent; a concurrent second call returns once the first is done.
    package func shutdown(gracePeriod: Duration) async {
        enum Step {
            case stop([LoopDaemon])
            case waitForOther
            case done
        }
        let step: Step = state.withLock { state in
            switch state.phase {
            case .running(let daemons):
                state.phase = .stopping
                return .stop(daemons)
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
        case .stop(let daemons):
            for daemon in daemons { await daemon.quiesce() }
            _ = await waitUntil(.now + gracePeriod) { $0.openRequests == 0 }
            let late = state.withLock { Array($0.suspended.values) }
            for slot in late {
                slot.cancelTask()
                slot.complete(with: configuration.shutdownResponse())
            }
            // Resumed connections are handed back to their loops; wait for them to queue (and
            // normally send) their responses, because stopping a daemon while a connection is
            // still suspended aborts the process.
            let resumed = await waitUntil(.now + .seconds(late.isEmpty ? 1 : 5)) { $0.suspended.isEmpty }
            if resumed {
                for daemon in daemons { await daemon.stop() }
            }
            changeState { state in
                state.phase = .stopped
                state.daemons = []
            }
            if ownsLoops, resumed { loops.shutdown() }
        }
    }

    // MARK: - Counters the daemons keep (on their loops)

    /// A connection was accepted on some loop: false when it is over `maximumConnections` (it is
    /// counted anyway, until `connectionClosed`).
    func connectionOpened() -> Bool {
        openConnections.add(1, ordering: .relaxed).newValue <= configuration.maximumConnections
    }

    func connectionClosed() {
        openConnections.subtract(1, ordering: .relaxed)
    }

    func requestStarted() {
        state.withLock { $0.openRequests += 1 }
    }

    /// A handler's connection is suspended until its response is queued.
    func suspended(_ slot: ResponseSlot) {
        state.withLock { $0.suspended[ObjectIdentifier(slot)] = slot }
    }

    /// A handler's response was queued: its connection runs again.
    func delivered(_ slot: ResponseSlot) {
        changeState { _ = $0.suspended.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    /// Completion callback: the response was sent, or the connection closed.
    func requestCompleted(_ context: RequestState) {
        let slot = context.slot
        slot?.abandon()
        changeState { state in
            state.openRequests -= 1
            if let slot { state.suspended[ObjectIdentifier(slot)] = nil }
        }
    }

    // MARK: - Waiting for the state

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

    // MARK: - Starting

    /// Starts one daemon per loop on the configured address: the first binds it (port 0 picks a
    /// free port), the others bind the port the first got, all with `SO_REUSEPORT`.
    private func launch() throws(HTTPServerError) -> [LoopDaemon] {
        let host = configuration.host
        guard var address = SocketAddress(host: host, port: UInt16(configuration.port)) else {
            throw .invalidHost(host)
        }
        var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        flags |= MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 {
            flags |= (address.isIPv6Unspecified ? MHD_USE_DUAL_STACK : MHD_USE_IPv6).rawValue
        }
        if configuration.port != 0 {
            switch address.probeBind() {
            case 0: break
            case EADDRINUSE: throw .addressInUse(host: host, port: configuration.port)
            case let code:
                throw .addressUnavailable(
                    host: host, port: configuration.port, diagnostic: String(cString: strerror(code)))
            }
        }
        var daemons: [LoopDaemon] = []
        for loop in loops.loops {
            let daemon = LoopDaemon(server: self, loop: loop)
            let started = address.withSockaddr { daemon.start(flags: flags, address: $0) }
            guard started else {
                // Undo the daemons already started (their loops run; nothing was accepted yet).
                let started = daemons
                Task { for daemon in started { await daemon.stop() } }
                throw launchError(port: daemons.first?.boundPort ?? configuration.port)
            }
            if daemons.isEmpty, let bound = SocketAddress(host: host, port: UInt16(daemon.boundPort)) {
                address = bound
            }
            daemons.append(daemon)
        }
        return daemons
    }

    /// Why libmicrohttpd could not start, from its last diagnostics.
    private func launchError(port: Int) -> HTTPServerError {
        let host = configuration.host
        let diagnostics = state.withLock { $0.diagnostics }
        let message = diagnostics.last?.message ?? "libmicrohttpd could not start"
        switch diagnostics.last(where: { $0.errno != 0 })?.errno {
        case EADDRINUSE:
            return .addressInUse(host: host, port: port)
        case EADDRNOTAVAIL, EACCES, EAFNOSUPPORT:
            return .addressUnavailable(host: host, port: port, diagnostic: message)
        default:
            return .startFailed(host: host, port: port, diagnostic: message)
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
