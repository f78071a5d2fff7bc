#if canImport(Glibc)
    import Glibc
#endif

/// A complete HTTP/1.1 response as bytes, for the answers the layer writes on a socket itself,
/// outside libmicrohttpd: 503 to a client over the connection limit (libmicrohttpd would leave it
/// in the backlog), 408 to a body past its deadline (libmicrohttpd cannot queue a response while it
/// reads a body). Always `Connection: close`: the socket is shut for writing right after.
struct RawAnswer: Sendable {
    let bytes: [UInt8]

    /// `response` serialised with its status line, `Content-Length` and `Connection: close`.
    init(_ response: HTTPResponse) {
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
        for (name, value) in response.headers {
            let lowercased = name.lowercased()
            guard lowercased != "content-length", lowercased != "connection", lowercased != "transfer-encoding",
                !name.contains(where: \.isNewline), !value.contains(where: \.isNewline)
            else { continue }
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        bytes = Array(head.utf8) + response.body
    }

    /// Writes the answer (a fresh socket's buffer takes it whole; a partial write is not retried)
    /// and shuts the socket for writing, so the client reads the answer and then end-of-file.
    /// `ConnectionDeadlines` shuts it down altogether a moment later, whatever the client sends.
    func write(to socket: Int32) {
        guard socket >= 0 else { return }
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        _ = Glibc.shutdown(socket, Int32(SHUT_WR))
    }
}
