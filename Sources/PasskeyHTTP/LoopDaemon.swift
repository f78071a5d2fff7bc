import CMicroHTTPD
import PasskeyEventLoop

#if canImport(Glibc)
    import Glibc
#endif

/// One libmicrohttpd daemon, driven by one event loop: `MHD_USE_EPOLL` without an internal
/// thread, its epoll descriptor in the loop's epoll set, `MHD_run` called by the loop whenever that
/// descriptor is ready (`EventLoopSource`). Every callback of this daemon — accepting, reading,
/// the request's handler task, the response's write — therefore runs on the loop's one thread.
/// The listening socket has `SO_REUSEPORT`: every loop's daemon listens on the same address and
/// the kernel spreads new connections over them.
///
/// `@unchecked Sendable`: `daemon` and `quiescedSocket` are touched only on the loop's thread
/// (after `start`, which happens before the daemon is attached), or after the loop stopped.
final class LoopDaemon: EventLoopSource, @unchecked Sendable {
    let loop: EventLoop
    /// The server whose handler, limits and state every daemon shares. Held strongly: a running
    /// daemon keeps its server alive; `HTTPServer.shutdown` stops the daemons and lets them go.
    let server: HTTPServer
    /// Open connections of this daemon and the deadlines of the heads and bodies they still owe.
    let deadlines: ConnectionDeadlines
    private var daemon: OpaquePointer?
    private var epollFD: Int32 = -1
    private var quiescedSocket: Int32?
    /// Asks the loop every 250 ms to enforce `deadlines` (see `run()`) while the daemon runs.
    private var sweeper: Task<Void, Never>?
    /// Set by the sweeper, read and cleared by `run()`; both on the loop's thread.
    private var sweepDue = false

    init(server: HTTPServer, loop: EventLoop) {
        self.server = server
        self.loop = loop
        let configuration = server.configuration
        deadlines = ConnectionDeadlines(
            head: .seconds(configuration.requestHeadTimeoutSeconds),
            body: .seconds(configuration.requestBodyTimeoutSeconds))
    }

    /// Starts libmicrohttpd on `address` (on the caller's thread: no daemon thread is created),
    /// then attaches it to the loop. Returns false when libmicrohttpd could not start (the server
    /// reads why from its diagnostics).
    func start(flags: UInt32, address: UnsafePointer<sockaddr>) -> Bool {
        guard let daemon = startDaemon(flags: flags, address: address) else { return false }
        self.daemon = daemon
        epollFD = passkey_mhd_epoll_fd(daemon)
        precondition(epollFD >= 0, "libmicrohttpd gave no epoll descriptor")
        let fd = epollFD
        let attached = loop.execute { [self] in
            loop.attach(self, fd: fd)
        }
        precondition(attached, "the daemon's event loop has stopped")
        sweeper = Task { [loop] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                loop.execute { [self] in
                    sweepDue = true
                    loop.runSoon(fd: fd)
                }
            }
        }
        return true
    }

    /// The bound TCP port (`MHD_DAEMON_INFO_BIND_PORT`), useful when port 0 was asked for.
    var boundPort: Int { daemon.map { Int(passkey_mhd_bound_port($0)) } ?? 0 }

    // MARK: - EventLoopSource

    /// Lets libmicrohttpd accept, read and write whatever is ready; then, when the sweeper asked,
    /// enforces the deadlines. In that order: after a stall of the loop (a loaded machine), a head
    /// that arrived in time is waiting in the socket, and must be read before its connection is
    /// judged overdue.
    func run() {
        guard let daemon else { return }
        _ = MHD_run(daemon)
        if sweepDue {
            sweepDue = false
            deadlines.enforce(now: .now, bodyTimedOut: server.bodyTimedOut)
        }
    }

    func timeoutMilliseconds() -> Int? {
        guard let daemon else { return nil }
        let timeout = passkey_mhd_timeout(daemon)
        return timeout < 0 ? nil : Int(timeout)
    }

    // MARK: - On the loop

    /// Resumes a suspended connection on the loop's thread and lets the daemon run at once, so
    /// its response is queued and written in this turn. From another thread the resume is handed
    /// to the loop (libmicrohttpd does not wake an external loop for a resume).
    func resume(_ connection: OpaquePointer) {
        let suspended = SuspendedConnection(pointer: connection)
        let resume: @Sendable () -> Void = { [self] in
            MHD_resume_connection(suspended.pointer)
            loop.runSoon(fd: epollFD)
        }
        if loop.inEventLoop {
            resume()
        } else {
            loop.execute(resume)
        }
    }

    /// Runs `work` on the loop's thread and waits for it; runs it here when the loop has stopped.
    private func onLoop(_ work: @escaping @Sendable () -> Void) async {
        if loop.inEventLoop { return work() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queued = loop.execute {
                work()
                continuation.resume()
            }
            if !queued {
                work()
                continuation.resume()
            }
        }
    }

    /// Stops accepting connections (`MHD_quiesce_daemon`) and shuts the listening socket down so
    /// that new clients are refused at once instead of waiting in the backlog; the socket itself is
    /// closed by `stop()`.
    func quiesce() async {
        await onLoop { [self] in
            guard let daemon else { return }
            let socket = MHD_quiesce_daemon(daemon)
            guard socket != MHD_INVALID_SOCKET else { return }
            quiescedSocket = socket
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    /// Detaches the daemon from its loop and stops it (`MHD_stop_daemon` closes every
    /// connection). Must not be called while a connection is suspended.
    func stop() async {
        sweeper?.cancel()
        sweeper = nil
        await onLoop { [self] in
            guard let daemon else { return }
            if loop.isRunning, loop.inEventLoop { loop.detach(fd: epollFD) }
            MHD_stop_daemon(daemon)
            self.daemon = nil
            if let socket = quiescedSocket {
                _ = close(socket)
                quiescedSocket = nil
            }
        }
    }
}

/// A suspended connection's pointer, carried to its loop's thread to be resumed there.
/// `@unchecked Sendable`: libmicrohttpd neither times out nor frees a suspended connection, and
/// the pointer is used only on the loop's thread.
private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}
