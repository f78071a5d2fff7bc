/// The state of one request between libmicrohttpd's callbacks.
///
/// Created by the URI callback (retained through `*req_cls`) and released by the
/// request-completed callback. libmicrohttpd calls every callback of one connection on that
/// connection's worker thread, so this class needs no lock; only `ResponseSlot` crosses to the
/// handler's task.
final class RequestState {
    /// Where the request is in its life.
    enum Phase {
        /// The request line is known; headers are being read.
        case headers
        /// Headers were seen; the body (if any) is being received.
        case body
        /// The handler's task runs while the connection is suspended.
        case handling(ResponseSlot)
        /// A response was queued.
        case responded
    }

    /// Bytes of an oversized chunked body that are read and dropped before the connection is
    /// closed instead of answered (the 413 can only be queued once the upload ended).
    static let discardLimitBytes = 1 << 20

    /// The raw request-target from the request line (path and query, not unescaped).
    let target: String
    var phase = Phase.headers
    /// True once the body exceeded the limit; the buffered part was dropped.
    private(set) var tooLarge = false
    private(set) var body: [UInt8] = []
    private var discardedBytes = 0

    init(target: String) {
        self.target = target
    }

    /// The handler's slot while it runs (or after it ran).
    var slot: ResponseSlot? {
        if case .handling(let slot) = phase { slot } else { nil }
    }

    /// Marks the body as too large before any of it was read (from `Content-Length`).
    func refuseBody() {
        tooLarge = true
        body = []
    }

    /// Appends one piece of the upload, keeping at most `limit` bytes. Returns false when so
    /// much of an oversized body was dropped that the connection should be closed.
    func receive(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Bool {
        if !tooLarge, body.count + bytes.count > limit {
            tooLarge = true
            discardedBytes = body.count
            body = []
        }
        guard !tooLarge else {
            discardedBytes += bytes.count
            return discardedBytes <= limit + Self.discardLimitBytes
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Hands the body over to the request (leaving none here).
    func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }
}
