import CMicroHTTPD
import Synchronization

/// Hands the response of one handler `Task` back to its suspended libmicrohttpd connection.
///
/// The connection is resumed exactly once: by the handler's task when it finishes, or by
/// `HTTPServer.shutdown` when the grace period ran out, whichever comes first. After that the
/// pointer is never touched again, so a handler that finishes late cannot reach a connection
/// that libmicrohttpd has already closed and freed.
///
/// `@unchecked Sendable` is safe: the only mutable state is behind the `Mutex`, and the
/// connection pointer is used only while the connection is still suspended, by the one call
/// that completed the slot, on the daemon's loop thread (libmicrohttpd neither times out nor
/// frees a suspended connection).
final class ResponseSlot: @unchecked Sendable {
    private enum Phase {
        /// The handler runs; the task is attached right after it was created.
        case running(Task<Void, Never>?)
        /// The response is ready and the connection was resumed.
        case completed(HTTPResponse)
        /// libmicrohttpd took the response and queued it.
        case delivered
        /// The connection went away; nothing may touch it any more.
        case abandoned
    }

    private let connection: OpaquePointer
    /// The daemon (and loop) the connection belongs to; the resume happens there.
    private let daemon: LoopDaemon
    private let phase = Mutex<Phase>(.running(nil))

    /// Takes a connection that the caller is about to suspend.
    init(connection: OpaquePointer, daemon: LoopDaemon) {
        self.connection = connection
        self.daemon = daemon
    }

    /// Remembers the handler's task so that a forced shutdown can cancel it.
    func attach(_ task: Task<Void, Never>) {
        phase.withLock { phase in
            if case .running = phase { phase = .running(task) }
        }
    }

    /// Stores `response` and resumes the connection, unless that happened already. Returns
    /// whether this call resumed it.
    @discardableResult
    func complete(with response: HTTPResponse) -> Bool {
        let resumes = phase.withLock { phase in
            guard case .running = phase else { return false }
            phase = .completed(response)
            return true
        }
        // Only the call that moved the phase from `running` resumes, so there is one resume, on
        // the daemon's loop (at once when the handler finished there, as it normally does; else
        // handed to the loop). The connection stays valid until it is resumed: libmicrohttpd
        // neither times out nor frees a suspended connection, and shutdown stops the daemon only
        // after every resumed connection took its response.
        if resumes { daemon.resume(connection) }
        return resumes
    }

    /// Cancels the handler's task (used when the shutdown grace period ran out).
    func cancelTask() {
        let task: Task<Void, Never>? = phase.withLock { phase in
            if case .running(let task) = phase { task } else { nil }
        }
        task?.cancel()
    }

    /// The response once the connection was resumed, at most once; `nil` before that.
    func takeResponse() -> HTTPResponse? {
        phase.withLock { phase in
            guard case .completed(let response) = phase else { return nil }
            phase = .delivered
            return response
        }
    }

    /// Marks the connection as gone (request-completed callback). Defensive: libmicrohttpd
    /// does not close a suspended connection, so the handler has normally finished by then.
    func abandon() {
        phase.withLock { $0 = .abandoned }
    }
}
