import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One TCP connection to 127.0.0.1 from a chosen loopback source address (any of 127.0.0.0/8),
/// held open across a test's steps. Blocking calls run on their own thread.
final class SourceBoundConnection: Sendable {
    struct Failure: Error {}

    private let socket: Int32

    private init(socket: Int32) {
        self.socket = socket
    }

    deinit {
        Glibc.close(socket)
    }

    static func open(port: Int, source: String) async throws -> SourceBoundConnection {
        try await onThread {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw Failure() }
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            var remote = sockaddr_in()
            remote.sin_family = sa_family_t(AF_INET)
            remote.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
            let size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, size) }
            }
            let connected = withUnsafePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, size) }
            }
            guard bound == 0, connected == 0 else {
                Glibc.close(socket)
                throw Failure()
            }
            return SourceBoundConnection(socket: socket)
        }
    }

    /// Sends `request`, then reads until the server closes or `timeout` passes: the bytes
    /// received, and whether the server closed (end of file or reset).
    func exchange(_ request: String, timeout: Duration) async throws -> (bytes: [UInt8], closed: Bool) {
        try await Self.onThread { [socket] in
            let bytes = Array(request.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var slice = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
            let deadline = ContinuousClock.now + timeout
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16_384)
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
    }

    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
