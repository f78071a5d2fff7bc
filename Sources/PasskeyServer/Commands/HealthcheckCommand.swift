internal import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `passkey-server healthcheck [--ready] [--timeout SECONDS]`: the container health check for
/// images without curl. Connects to the server on this machine (`PORT`, default 8080), asks
/// `/healthz` (or `/readyz` with `--ready`) and exits 0 on a 200, 1 otherwise, waiting at most
/// `--timeout` seconds (default 5) for each of connect, send and receive. Plain HTTP/1.1 over a
/// socket: no TLS, no redirects, no body parsing.
enum HealthcheckCommand {
    static let usage = """
        usage: passkey-server healthcheck [--ready] [--timeout SECONDS]

        exits 0 when the server on 127.0.0.1:$PORT answers GET /healthz (or /readyz with --ready)
        with 200 within SECONDS (default 5), 1 otherwise; for container health checks (the runtime
        image has no curl)
        """

    static func run(arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.contains("--help") {
            Console.out(usage)
            return 0
        }
        var ready = false
        var timeout = 5
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--ready": ready = true
            case "--timeout":
                guard let value = rest.popFirst().flatMap({ Int($0) }), (1...300).contains(value) else {
                    Console.error("passkey-server: healthcheck: --timeout needs 1 to 300 seconds\n\(usage)")
                    return 2
                }
                timeout = value
            default:
                Console.error("passkey-server: healthcheck: unknown argument \(argument)\n\(usage)")
                return 2
            }
        }
        let port = environment["PORT"].flatMap { Int($0) } ?? 8080
        guard (1...65_535).contains(port) else {
            Console.error("passkey-server: healthcheck: PORT \(port) is not a port")
            return 1
        }
        let path = ready ? "/readyz" : "/healthz"
        guard let status = status(port: UInt16(port), path: path, timeoutSeconds: timeout) else {
            Console.error("passkey-server: healthcheck: no answer on 127.0.0.1:\(port)")
            return 1
        }
        if status == 200 { return 0 }
        Console.error("passkey-server: healthcheck: \(path) answered \(status)")
        return 1
    }

    /// The status code of `GET path` on 127.0.0.1:port, or nil when there is no HTTP answer.
    private static func status(port: UInt16, path: String, timeoutSeconds: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let received = recv(fd, &buffer, buffer.count, 0)
        guard received > 12 else { return nil }
        // "HTTP/1.1 200 …"
        let line = String(decoding: buffer[0..<received], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        return Int(parts[1])
    }
}
