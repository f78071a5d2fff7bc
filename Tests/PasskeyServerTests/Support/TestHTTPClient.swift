import Foundation
import PasskeyDatabaseTestSupport
import PasskeyHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as the tests look at it.
struct TestResponse: Sendable {
    let status: Int
    /// Header names lowercased.
    let headers: [String: String]
    let body: Data

    /// The body as a JSON object ([:] when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    var jsonArray: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? []
    }

    /// The problem+json `code`.
    var code: String? { json["code"] as? String }
    var text: String { String(decoding: body, as: UTF8.self) }

    func string(_ key: String) -> String? { json[key] as? String }
}

/// How a test's requests reach the server: real HTTP over loopback with URLSession, through
/// libmicrohttpd and the event loops (`socket`), or handed as an `HTTPRequest` straight to the
/// application's pipeline and router (`inProcess`: the endpoint tests that are not about the
/// HTTP layer, with no socket, no thread of libmicrohttpd, and the same database).
enum TestTransport: Sendable {
    case socket(base: String)
    case inProcess(@Sendable (HTTPRequest) async -> HTTPResponse)
}

/// A client of the server under test, over its transport.
struct TestHTTPClient: Sendable {
    let transport: TestTransport

    init(base: String) { transport = .socket(base: base) }
    init(handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { transport = .inProcess(handler) }

    /// The URL a socket client reaches the server at (`http://127.0.0.1:PORT`); in-process, a
    /// placeholder that nothing listens at.
    var base: String {
        switch transport {
        case .socket(let base): base
        case .inProcess: "http://in-process.invalid"
        }
    }

    func send(
        _ method: String, _ path: String, json: [String: Any]? = nil, raw: [UInt8]? = nil, token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> TestResponse {
        var body: Data?
        var fields: [(String, String)] = []
        if let json {
            body = try JSONSerialization.data(withJSONObject: json)
            fields.append(("Content-Type", "application/json"))
        } else if let raw {
            body = Data(raw)
            // JSON unless the caller names its own type (a form body).
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                fields.append(("Content-Type", "application/json"))
            }
        }
        if let token { fields.append(("Authorization", "Bearer \(token)")) }
        for (name, value) in headers { fields.append((name, value)) }
        let answer: TestResponse
        switch transport {
        case .socket(let base):
            answer = try await Self.overSocket(method, base + path, body: body, headers: fields)
        case .inProcess(let handler):
            answer = await Self.inProcess(method, path, body: body, headers: fields, handler: handler)
        }
        if SecretAudit.directory != nil { Self.audit(sent: json, received: answer) }
        return answer
    }

    private static func overSocket(_ method: String, _ url: String, body: Data?, headers: [(String, String)])
        async throws -> TestResponse
    {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var lowered: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { lowered[name.lowercased()] = value }
        }
        return TestResponse(status: http.statusCode, headers: lowered, body: data)
    }

    /// The request as libmicrohttpd would hand it over from a loopback client (lowercased names,
    /// the target split at `?`, `Host` and `Content-Length` as URLSession sends them).
    private static func inProcess(
        _ method: String, _ target: String, body: Data?, headers: [(String, String)],
        handler: @Sendable (HTTPRequest) async -> HTTPResponse
    ) async -> TestResponse {
        var fields: HTTPFields = [("host", "127.0.0.1")]
        for (name, value) in headers where name.lowercased() != "host" { fields.set(name.lowercased(), value) }
        if let body { fields.append(("content-length", String(body.count))) }
        let split = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: method), path: String(split[0]),
            query: split.count > 1 ? String(split[1]) : nil, headers: fields,
            body: body.map { Array($0) } ?? [], remoteAddress: "127.0.0.1")
        let response = await handler(request)
        var lowered: [String: String] = [:]
        for (name, value) in response.headers { lowered[name.lowercased()] = value }
        lowered["content-length"] = String(response.body.count)
        return TestResponse(
            status: response.status.code, headers: lowered, body: method == "HEAD" ? Data() : Data(response.body))
    }

    /// The secrets of a request and its answer, for the suite-wide check that no event holds
    /// one (`SecretAudit`): passwords and codes sent, tokens and recovery codes received.
    private static func audit(sent: [String: Any]?, received: TestResponse) {
        for key in ["password", "code"] {
            if let value = sent?[key] as? String { SecretAudit.record(secret: value) }
        }
        let body = received.json
        if let token = body["accessToken"] as? String { SecretAudit.record(secret: token) }
        // (v4) A minted JWT, and its signature alone.
        if let jwt = body["token"] as? String {
            SecretAudit.record(secret: jwt)
            if let signature = jwt.split(separator: ".").last { SecretAudit.record(secret: String(signature)) }
        }
        for code in body["codes"] as? [String] ?? [] { SecretAudit.record(secret: code) }
    }
}
