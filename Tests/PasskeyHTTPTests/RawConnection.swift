import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection held open across the steps of a test (slow clients, connection
/// limits). Every blocking call runs on its own thread; the socket is closed on `close()` or
/// when the object goes away.
final class RawConnection: Sendable {
    let socket: Int32

    private init(socket: Int32) {
        self.socket = socket
    }

    deinit {
        Glibc.close(socket)
    }

    /// Connects as `client` describes (host, port and source address).
    static func open(_ client: RawHTTPClient) async throws -> RawConnection {
        try await RawHTTPClient.onThread { RawConnection(socket: try client.connect()) }
    }

    /// Sends all of `bytes`; throws when the server has closed or reset the connection.
    func send(_ bytes: [UInt8]) async throws {
        try await RawHTTPClient.onThread { [socket] in try RawHTTPClient.send(bytes, on: socket) }
    }

    /// Reads until the server closes the connection or `timeout` passes: what arrived, and
    /// whether the server closed (end of file or reset).
    func readUntilClosed(timeout: Duration) async -> (bytes: [UInt8], closed: Bool) {
        let result = try? await RawHTTPClient.onThread { [socket] in
            var slice = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
            let deadline = ContinuousClock.now + timeout
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while ContinuousClock.now < deadline {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    received += buffer[0..<count]
                } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    return (received, true)
                }
            }
            return (received, false)
        }
        return result ?? ([], true)
    }

    /// Closes the connection now.
    func close() {
        Glibc.shutdown(socket, Int32(SHUT_RDWR))
    }
}
