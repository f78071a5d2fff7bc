import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The hard deadline for request heads: every open connection is registered with the instant by
/// which its next request head must be complete, and `enforce(now:)` (called every 250 ms by the
/// server's sweeper task) shuts down the socket of every connection past it.
///
/// libmicrohttpd's own `MHD_OPTION_CONNECTION_TIMEOUT` is an idle timeout, restarted by every
/// byte received, so a client trickling one byte every few seconds would hold a connection for
/// ever; this deadline is measured from the accept (or from the end of the previous response on a
/// keep-alive connection) and is not moved by any byte.
///
/// Races with the connection's own end: libmicrohttpd reports `MHD_CONNECTION_NOTIFY_CLOSED`
/// (→ `closed(_:)`) before it closes the socket, on the connection's worker thread. `enforce`
/// calls `shutdown(2)` only while holding the lock and only for a connection still registered,
/// and `closed(_:)` takes the same lock, so a socket number is shut down only while it still
/// belongs to that connection: once `closed(_:)` returned (and the descriptor could be closed and
/// reused for a new client), the entry is gone. `shutdown(2)` (not `close(2)`) leaves the
/// descriptor to libmicrohttpd, which sees end-of-file, closes the connection normally and calls
/// the completion and close notifications as for any client that went away. A head completing
/// just as the deadline passes may be cut or not; either way the connection is closed or served
/// consistently. Suspended connections (a handler is running) never have a deadline, because the
/// head was complete before the handler started.
///
/// `Sendable`: all state is behind the `Mutex`.
final class HeadDeadlines: Sendable {
    private struct Entry {
        let socket: Int32
        /// `nil` while no head is awaited (a request is being read, handled or answered).
        var deadline: ContinuousClock.Instant?
    }

    private let timeout: Duration
    private let entries = Mutex<[UInt: Entry]>([:])

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Open connections (for tests and metrics).
    var count: Int { entries.withLock { $0.count } }

    /// A connection was accepted (`MHD_CONNECTION_NOTIFY_STARTED`): its first head is due.
    func opened(_ connection: UInt, socket: Int32) {
        let deadline = ContinuousClock.now + timeout
        entries.withLock { $0[connection] = Entry(socket: socket, deadline: deadline) }
    }

    /// The head of the current request is complete (first call of the access handler).
    func headArrived(_ connection: UInt) {
        entries.withLock { $0[connection]?.deadline = nil }
    }

    /// A request completed; on a kept-alive connection the next head is due from now.
    func awaitNextHead(_ connection: UInt) {
        let deadline = ContinuousClock.now + timeout
        entries.withLock { $0[connection]?.deadline = deadline }
    }

    /// The connection is closing (`MHD_CONNECTION_NOTIFY_CLOSED`, before its socket is closed).
    func closed(_ connection: UInt) {
        _ = entries.withLock { $0.removeValue(forKey: connection) }
    }

    /// Shuts down (`shutdown(2)`, under the lock) every connection whose head is overdue;
    /// returns how many.
    @discardableResult
    func enforce(now: ContinuousClock.Instant) -> Int {
        entries.withLock { entries in
            var cut = 0
            for (connection, entry) in entries {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                entries[connection]?.deadline = nil
                _ = Glibc.shutdown(entry.socket, Int32(SHUT_RDWR))
                cut += 1
            }
            return cut
        }
    }

    /// Runs `enforce` every `interval` until the task is cancelled.
    func sweep(every interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            enforce(now: .now)
        }
    }
}
