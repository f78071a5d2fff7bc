import Foundation
import PasskeyClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stand-in for the passkey server, with no socket and no database: a `PasskeyClient` made by
/// `client(accessToken:)` sends its requests here (through `StubURLProtocol`); each is recorded
/// and gets the next queued answer. A request with no answer queued fails the test.
final class StubServer: Sendable {
    /// One request as it left the client.
    struct Request: Sendable {
        let method: String
        /// As sent (percent-encoded).
        let path: String
        /// The percent-encoded query, nil when there is none.
        var query: String? = nil
        /// Lowercased names.
        let headers: [String: String]
        let body: Data?

        /// The JSON object of the body (nil when there is none or it is not an object).
        var json: [String: Any]? {
            body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
    }

    indirect enum Answer: Sendable {
        case response(HTTPURLResponse, body: Data)
        case failure(URLError)
        /// Given only once the test opens `gate` (a request the test wants in flight).
        case held(Gate, Answer)
    }

    /// Holds one answer back until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func open() { semaphore.signal() }
        func wait() { semaphore.wait() }
    }

    let host = "stub-\(UUID().uuidString.lowercased()).test"
    private let state = Locked<(answers: [Answer], requests: [Request])>(([], []))

    init() { StubURLProtocol.register(self) }

    deinit { StubURLProtocol.unregister(host: host) }

    /// A client of this stub, on an ephemeral session of its own.
    func client(accessToken: String? = nil) -> PasskeyClient {
        PasskeyClient(baseURL: baseURL, session: session(), accessToken: accessToken)
    }

    /// A client of this stub that keeps its token in `tokenStore`.
    func client(
        tokenStore: any PasskeyTokenStore, onStoreFailure: (@Sendable (PasskeyTokenStoreFailure) -> Void)? = nil
    ) -> PasskeyClient {
        PasskeyClient(baseURL: baseURL, session: session(), tokenStore: tokenStore, onStoreFailure: onStoreFailure)
    }

    private var baseURL: URL { URL(string: "https://\(host)")! }

    private func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    /// Queues one answer; `contentType` defaults to the contract's (problem+json for errors).
    func respond(status: Int, _ body: String = "", contentType: String? = nil, headers: [String: String] = [:]) {
        let answer = Self.response(host: host, status: status, body, contentType: contentType, headers: headers)
        state.withLock { $0.answers.append(answer) }
    }

    private static func response(
        host: String, status: Int, _ body: String, contentType: String? = nil, headers: [String: String] = [:]
    ) -> Answer {
        var fields = headers
        if !body.isEmpty {
            fields["Content-Type"] =
                contentType ?? (status >= 400 ? "application/problem+json" : "application/json")
        }
        let response = HTTPURLResponse(
            url: URL(string: "https://\(host)")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)!
        return .response(response, body: Data(body.utf8))
    }

    /// Queues an answer that is given only after the returned gate is opened: the request stays
    /// in flight until then (its sender waits, as on a slow network).
    func respondLater(status: Int, _ body: String = "") -> Gate {
        let gate = Gate()
        state.withLock { $0.answers.append(.held(gate, Self.response(host: host, status: status, body))) }
        return gate
    }

    /// Waits (at most 10 s) until `count` requests have arrived.
    func untilRequests(_ count: Int) async throws {
        for _ in 0..<1000 where requests.count < count { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// Queues a transport failure (no answer at all).
    func fail(_ code: URLError.Code) { state.withLock { $0.answers.append(.failure(URLError(code))) } }

    /// Every request so far, in order.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Called by `StubURLProtocol` for each request.
    func answer(_ request: URLRequest, body: Data?) -> Answer {
        let recorded = Request(
            method: request.httpMethod ?? "GET",
            path: request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedPath }
                ?? "",
            query: request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedQuery },
            headers: Dictionary(
                (request.allHTTPHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
            body: body)
        return state.withLock { state in
            state.requests.append(recorded)
            guard !state.answers.isEmpty else { return .failure(URLError(.resourceUnavailable)) }
            return state.answers.removeFirst()
        }
    }
}
