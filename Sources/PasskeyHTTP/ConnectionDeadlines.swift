import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The hard deadlines of one daemon's connections: the request head must be complete
/// `head` after the accept (or after the previous response on a keep-alive connection), and the
/// body `body` after its head. `enforce(now:)` (every 250 ms, by the daemon on its loop) shuts down the
/// socket of a connection past its head deadline (closed without an answer, as the contract
/// says), and answers one past its body deadline with `408` problem+json (`bodyTimedOut`, written
/// raw on the socket: libmicrohttpd cannot queue a response while a body is being read) before
/// shutting the socket for writing. A connection answered raw (408 here, 503 over the connection
/// limit) is then shut down altogether `linger` later, whatever its client keeps sending: the
/// client has had the time to read its answer, and the connection stops being counted.
///
/// libmicrohttpd's own `MHD_OPTION_CONNECTION_TIMEOUT` is an idle timeout, restarted by every
/// byte received, so a client trickling one byte every few seconds would hold a connection for
/// ever; these deadlines are not moved by any byte.
///
/// Everything here runs on the daemon's loop thread — the callbacks that register, advance and
/// close connections, and the sweep — so a socket number is shut down only while it still belongs
/// to that connection (libmicrohttpd reports `MHD_CONNECTION_NOTIFY_CLOSED` before closing it).
/// The lock is kept for the counters read by other threads (tests, metrics) and is uncontended.
/// `shutdown(2)` (not `close(2)`) leaves the descriptor to libmicrohttpd, which sees end-of-file,
/// closes the connection normally and calls the completion and close notifications as for any
/// client that went away.
///
/// `Sendable`: all state is behind the `Mutex`.
final class ConnectionDeadlines: Sendable {
    private enum Due {
        /// The next request head.
        case head(ContinuousClock.Instant)
        /// The rest of the current request's body.
        case body(ContinuousClock.Instant)
        /// The end of a connection answered raw.
        case close(ContinuousClock.Instant)
    }

    /// How long a connection answered raw is left open for its client to read the answer.
    static let linger: Duration = .seconds(1)

    private struct Entry {
        let socket: Int32
        /// `nil` while nothing is awaited (a request is handled or answered).
        var due: Due?
        /// Answered by the layer itself (408, or 503 over the connection limit): libmicrohttpd
        /// must not answer or handle anything more on it.
        var answered = false
    }

    private let head: Duration
    private let body: Duration
    private let entries = Mutex<[UInt: Entry]>([:])

    init(head: Duration, body: Duration) {
        self.head = head
        self.body = body
    }

    /// Open connections (for tests and metrics).
    var count: Int { entries.withLock { $0.count } }

    /// A connection was accepted (`MHD_CONNECTION_NOTIFY_STARTED`): its first head is due.
    func opened(_ connection: UInt, socket: Int32) {
        let due = Due.head(.now + head)
        entries.withLock { $0[connection] = Entry(socket: socket, due: due) }
    }

    /// The head of the current request is complete (first call of the access handler): its body
    /// is due now.
    func headArrived(_ connection: UInt) {
        let due = Due.body(.now + body)
        entries.withLock { $0[connection]?.due = due }
    }

    /// The body is complete (or refused before it was read): nothing is due until the response
    /// was sent.
    func bodyArrived(_ connection: UInt) {
        entries.withLock { $0[connection]?.due = nil }
    }

    /// A request completed; on a kept-alive connection the next head is due from now.
    func awaitNextHead(_ connection: UInt) {
        let due = Due.head(.now + head)
        entries.withLock { entries in
            guard entries[connection]?.answered == false else { return }
            entries[connection]?.due = due
        }
    }

    /// The connection is closing (`MHD_CONNECTION_NOTIFY_CLOSED`, before its socket is closed).
    func closed(_ connection: UInt) {
        _ = entries.withLock { $0.removeValue(forKey: connection) }
    }

    /// Writes `answer` on the connection's socket, shuts it for writing, and marks the connection
    /// answered; false when the connection is unknown or was answered already.
    @discardableResult
    func answer(_ connection: UInt, with answer: RawAnswer) -> Bool {
        entries.withLock { entries in
            guard let entry = entries[connection], !entry.answered else { return false }
            entries[connection]?.answered = true
            entries[connection]?.due = .close(.now + Self.linger)
            answer.write(to: entry.socket)
            return true
        }
    }

    /// True for a connection the layer answered itself (its requests are never handled).
    func isAnswered(_ connection: UInt) -> Bool {
        entries.withLock { $0[connection]?.answered ?? false }
    }

    /// Shuts down every connection whose head is overdue, answers every one whose body is overdue
    /// with `bodyTimedOut`, and shuts down every connection answered raw `linger` ago; returns how
    /// many heads and bodies were cut.
    @discardableResult
    func enforce(now: ContinuousClock.Instant, bodyTimedOut: RawAnswer) -> (heads: Int, bodies: Int) {
        entries.withLock { entries in
            var cut = (heads: 0, bodies: 0)
            for (connection, entry) in entries {
                switch entry.due {
                case .head(let deadline) where deadline <= now:
                    entries[connection]?.due = nil
                    _ = Glibc.shutdown(entry.socket, Int32(SHUT_RDWR))
                    cut.heads += 1
                case .body(let deadline) where deadline <= now:
                    entries[connection]?.due = .close(now + Self.linger)
                    entries[connection]?.answered = true
                    bodyTimedOut.write(to: entry.socket)
                    cut.bodies += 1
                case .close(let deadline) where deadline <= now:
                    entries[connection]?.due = nil
                    _ = Glibc.shutdown(entry.socket, Int32(SHUT_RDWR))
                default:
                    break
                }
            }
            return cut
        }
    }
}
