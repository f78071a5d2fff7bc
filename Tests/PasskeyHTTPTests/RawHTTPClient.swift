import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 client over a POSIX socket for what URLSession cannot express (chunked
/// uploads, headers without a body, abrupt close). Every exchange runs on its own thread so
/// that no Swift cooperative thread ever blocks.
struct RawHTTPClient: Sendable {
    /// A response as read from the wire.
    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }
    }

    /// Why an exchange failed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var code: Int32 = 0
    }

    var host = "127.0.0.1"
    var port: Int
    /// The local IPv4 address to connect from (any of 127.0.0.0/8 works on Linux), or `nil`.
    var source: String?
    /// How long one send or receive may block (`SO_SNDTIMEO`, `SO_RCVTIMEO`).
    var socketTimeoutSeconds = 10

    /// Sends `request`, then reads one response (until its Content-Length, or EOF).
    func exchange(_ request: [UInt8]) async throws -> Response {
        try await Self.onThread { [self] in
            let socket = try connect()
            defer { close(socket) }
            try Self.send(request, on: socket)
            return try Self.readResponse(from: socket)
        }
    }

    /// Sends `request`, then reads until the server closes the connection (or `timeout`
    /// passes): every complete response received, and whether the server closed.
    func exchangeUntilClosed(
        _ request: [UInt8], timeout: Duration = .seconds(15)
    ) async throws -> (responses: [Response], closed: Bool) {
        let connection = try await RawConnection.open(self)
        try await connection.send(request)
        let (bytes, closed) = await connection.readUntilClosed(timeout: timeout)
        return (Self.responses(in: bytes), closed)
    }

    /// Sends `request` and closes the socket after `delay` without reading anything.
    func sendAndClose(_ request: [UInt8], after delay: Duration) async throws {
        try await Self.onThread { [self] in
            let socket = try connect()
            try Self.send(request, on: socket)
            Thread.sleep(
                forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
            close(socket)
        }
    }

    /// Tries to connect; returns the `errno` of a refused connection, or 0 when it succeeded.
    func connectionError() async throws -> Int32 {
        try await Self.onThread { [self] in
            do {
                close(try connect())
                return 0
            } catch let failure as Failure {
                return failure.code
            }
        }
    }

    /// A request with the given body sent as chunks of `chunkSize` bytes.
    static func chunkedPost(path: String, body: [UInt8], chunkSize: Int) -> [UInt8] {
        var bytes = Array("POST \(path) HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            bytes += Array("\(String(end - offset, radix: 16))\r\n".utf8) + body[offset..<end] + Array("\r\n".utf8)
            offset = end
        }
        return bytes + Array("0\r\n\r\n".utf8)
    }

    /// The complete responses in `bytes`, read one after another by their `Content-Length`.
    static func responses(in bytes: [UInt8]) -> [Response] {
        var responses: [Response] = []
        var rest = bytes[...]
        let separator = Array("\r\n\r\n".utf8)
        while let range = rest.firstRange(of: separator) {
            var response = parseHead(Array(rest[..<range.lowerBound]))
            let length = response.header("content-length").flatMap { Int($0) } ?? 0
            guard rest.distance(from: range.upperBound, to: rest.endIndex) >= length else { break }
            response.body = Array(rest[range.upperBound..<range.upperBound + length])
            responses.append(response)
            rest = rest[(range.upperBound + length)...]
        }
        return responses
    }

    /// A connected blocking socket (`socketTimeoutSeconds` send and receive timeouts).
    func connect() throws -> Int32 {
        let v6 = host.contains(":")
        let socket = Glibc.socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed", code: errno) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                close(socket)
                throw Failure(description: "bind(\(source)) failed: errno \(code)", code: code)
            }
        }
        var timeout = timeval(tv_sec: socketTimeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let code = errno
            close(socket)
            throw Failure(description: "connect() failed: errno \(code)", code: code)
        }
        return socket
    }

    static func send(_ bytes: [UInt8], on socket: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send() failed: errno \(errno)", code: errno) }
            offset += sent
        }
    }

    private static func readResponse(from socket: Int32) throws -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        var expected: Int?
        while true {
            if let headerEnd, let expected, received.count >= headerEnd + expected { break }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "recv() failed: errno \(errno)", code: errno) }
            received += buffer[0..<count]
            if headerEnd == nil, let range = received.firstRange(of: separator) {
                headerEnd = range.upperBound
                let head = parseHead(Array(received[..<range.lowerBound]))
                expected = head.headers.first { $0.name == "content-length" }.flatMap { Int($0.value) }
            }
        }
        guard let headerEnd, let separatorStart = received.firstRange(of: separator)?.lowerBound else {
            throw Failure(description: "no complete response header in \(received.count) bytes")
        }
        var response = parseHead(Array(received[..<separatorStart]))
        response.body = Array(received[headerEnd...])
        return response
    }

    static func parseHead(_ bytes: [UInt8]) -> Response {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Response(status: status, headers: headers, body: [])
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
