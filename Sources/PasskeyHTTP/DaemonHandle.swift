import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// Owns one running `MHD_Daemon` and its listening socket once quiesced.
///
/// `@unchecked Sendable` is safe: the pointer never changes, libmicrohttpd's own threads
/// synchronise internally, and `HTTPServer`'s state machine hands the handle to exactly one
/// caller of `shutdown` (the one that moved the server to `.stopping`), so `quiesce()` and
/// `stop()` are each called once, in that order, from one task.
final class DaemonHandle: @unchecked Sendable {
    private let daemon: OpaquePointer
    private var quiescedSocket: Int32?

    init(_ daemon: OpaquePointer) {
        self.daemon = daemon
    }

    /// The bound TCP port (`MHD_DAEMON_INFO_BIND_PORT`), useful when port 0 was asked for.
    var boundPort: Int { Int(passkey_mhd_bound_port(daemon)) }

    /// Stops accepting connections (`MHD_quiesce_daemon`) and shuts the listening socket down
    /// so that new clients are refused at once instead of waiting in the backlog. The socket
    /// itself is closed only after `stop()`, as libmicrohttpd requires with internal threads.
    func quiesce() {
        let socket = MHD_quiesce_daemon(daemon)
        guard socket != MHD_INVALID_SOCKET else { return }
        quiescedSocket = socket
        _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Stops the daemon (`MHD_stop_daemon`): joins its threads and closes every connection.
    /// Must not be called while a connection is suspended.
    func stop() {
        MHD_stop_daemon(daemon)
        if let socket = quiescedSocket {
            _ = close(socket)
            quiescedSocket = nil
        }
    }
}
