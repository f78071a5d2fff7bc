import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sends a request-target exactly as written (URLSession would normalise `..` away) and returns
/// the response's status and body. Blocking socket I/O runs on its own thread.
enum RawRequest {
    struct Failure: Error {}

    static func send(port: Int, method: String = "GET", target: String) async throws -> (status: Int, body: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try exchange(port: port, method: method, target: target) })
            }
        }
    }

    private static func exchange(port: Int, method: String, target: String) throws -> (status: Int, body: String) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure() }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure() }
        let request = Array("\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ Glibc.send(socket, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw Failure()
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure() }
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }
}
