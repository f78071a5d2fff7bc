import Foundation
import PasskeyHTTP
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A started `HTTPServer` on 127.0.0.1 with an ephemeral port, recording every request its
/// handler sees.
struct TestServer: Sendable {
    /// Requests that reached the handler, in order of arrival.
    final class RequestLog: Sendable {
        private let requests = Mutex<[HTTPRequest]>([])

        func append(_ request: HTTPRequest) { requests.withLock { $0.append(request) } }
        var all: [HTTPRequest] { requests.withLock { $0 } }
    }

    /// The problem+json 413 the tests configure.
    static let tooLargeBody = Array(#"{"type":"about:blank","status":413,"code":"payload-too-large"}"#.utf8)

    let server: HTTPServer
    let log: RequestLog
    let host: String

    var port: Int { server.port }
    var client: RawHTTPClient { RawHTTPClient(host: host, port: port) }

    func url(_ pathAndQuery: String) -> URL {
        let authority = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(authority):\(port)\(pathAndQuery)")!
    }

    /// Answers 200 with the request body and `X-Echo-*` headers describing the request.
    static func echo(_ request: HTTPRequest) async -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "application/octet-stream"),
                ("X-Echo-Method", request.method.rawValue),
                ("X-Echo-Length", String(request.body.count)),
            ],
            body: request.body)
    }

    /// Runs `body` against a fresh server and always shuts it down afterwards.
    @discardableResult
    static func with<T>(
        host: String = "127.0.0.1",
        configure: (inout HTTPServer.Configuration) -> Void = { _ in },
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse = echo,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        var configuration = HTTPServer.Configuration(
            host: host, port: 0, threads: 2,
            tooLarge: { HTTPResponse(status: 413, contentType: "application/problem+json", body: tooLargeBody) })
        configure(&configuration)
        let log = RequestLog()
        let server = HTTPServer(configuration: configuration) { request in
            log.append(request)
            return await handler(request)
        }
        try server.start()
        let testServer = TestServer(server: server, log: log, host: host)
        do {
            let result = try await body(testServer)
            await server.shutdown(gracePeriod: .seconds(2))
            return result
        } catch {
            await server.shutdown(gracePeriod: .seconds(2))
            throw error
        }
    }

    /// A URLSession allowing many parallel connections to one host.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        configuration.timeoutIntervalForRequest = 20
        return URLSession(configuration: configuration)
    }()

    /// Sends one request with URLSession; returns status, headers and body.
    func send(
        _ method: String, _ pathAndQuery: String, headers: [String: String] = [:], body: [UInt8]? = nil
    ) async throws -> (status: Int, response: HTTPURLResponse, body: [UInt8]) {
        var request = URLRequest(url: url(pathAndQuery))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0) }
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http, Array(data))
    }
}
