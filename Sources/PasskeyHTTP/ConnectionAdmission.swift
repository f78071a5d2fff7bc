import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The per-address connection limit (`maximumConnectionsPerAddress`), counted over the whole
/// thread pool by `PeerKey`: an IPv4 peer (also IPv4-mapped IPv6, as a dual-stack socket reports
/// IPv4 clients) by its address, an IPv6 peer by its /64, because one host usually holds a whole
/// /64 and can pick any source address in it. Peers `isUnlimited` accepts (trusted proxies,
/// through which every client connects) are not counted.
///
/// libmicrohttpd reports every accepted connection (`MHD_CONNECTION_NOTIFY_STARTED`, → `opened`)
/// before it reads a byte of it, and its end (`MHD_CONNECTION_NOTIFY_CLOSED`, → `closed`) on the
/// same worker thread. A connection over the limit is not counted; the caller shuts its socket
/// down at once (so it is closed without an answer) and `isRefused` keeps any request already in
/// the socket from reaching the handler. Counting and checking happen under one lock, so
/// however many connections from one key arrive at once on however many threads, at most
/// `limit` are admitted.
package final class ConnectionAdmission: Sendable {
    private enum Entry {
        case counted(PeerKey)
        case unlimited
        case refused
    }

    private struct State {
        var open: [PeerKey: Int] = [:]
        var connections: [UInt: Entry] = [:]
    }

    /// 0 = no limit.
    private let limit: Int
    private let isUnlimited: @Sendable (String) -> Bool
    private let state = Mutex(State())

    package init(limit: Int, isUnlimited: @escaping @Sendable (String) -> Bool) {
        self.limit = limit
        self.isUnlimited = isUnlimited
    }

    /// A connection from `peer` was accepted: true when it may stay open (it is counted until
    /// `closed`), false when its key already has `limit` open connections.
    func opened(_ connection: UInt, peer: UnsafePointer<sockaddr>?) -> Bool {
        guard limit > 0 else { return true }
        guard let key = peer.flatMap(PeerKey.init(address:)), !isUnlimited(SocketAddress.text(of: peer)) else {
            state.withLock { $0.connections[connection] = .unlimited }
            return true
        }
        return state.withLock { state in
            let open = state.open[key, default: 0]
            guard open < limit else {
                state.connections[connection] = .refused
                return false
            }
            state.open[key] = open + 1
            state.connections[connection] = .counted(key)
            return true
        }
    }

    /// True for a connection `opened` refused (its requests are never handled).
    package func isRefused(_ connection: UInt) -> Bool {
        guard limit > 0 else { return false }
        return state.withLock { state in
            if case .refused = state.connections[connection] { true } else { false }
        }
    }

    /// The connection is closing: it no longer counts.
    package func closed(_ connection: UInt) {
        guard limit > 0 else { return }
        state.withLock { state in
            guard case .counted(let key) = state.connections.removeValue(forKey: connection) else { return }
            let open = state.open[key, default: 1] - 1
            state.open[key] = open > 0 ? open : nil
        }
    }

    /// `opened` for a peer given as a numeric address (for tests).
    package func opened(_ connection: UInt, peer: String) -> Bool {
        guard let address = SocketAddress(host: peer, port: 0) else { return opened(connection, peer: nil) }
        return address.withSockaddr { opened(connection, peer: $0) }
    }

    /// Open connections counted against `key` (for tests and metrics).
    package func openCount(for key: PeerKey) -> Int {
        state.withLock { $0.open[key, default: 0] }
    }
}
