import Foundation
import PasskeyDatabaseTestSupport

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

/// Real HTTP over loopback with URLSession.
struct TestHTTPClient: Sendable {
    let base: String

    func send(
        _ method: String, _ path: String, json: [String: Any]? = nil, raw: [UInt8]? = nil, token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> TestResponse {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let raw {
            request.httpBody = Data(raw)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var lowered: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { lowered[name.lowercased()] = value }
        }
        let answer = TestResponse(status: http.statusCode, headers: lowered, body: data)
        if SecretAudit.directory != nil { Self.audit(sent: json, received: answer) }
        return answer
    }

    /// The secrets of a request and its answer, for the suite-wide check that no event holds
    /// one (`SecretAudit`): passwords and codes sent, tokens and recovery codes received.
    private static func audit(sent: [String: Any]?, received: TestResponse) {
        for key in ["password", "code"] {
            if let value = sent?[key] as? String { SecretAudit.record(secret: value) }
        }
        let body = received.json
        if let token = body["accessToken"] as? String { SecretAudit.record(secret: token) }
        for code in body["codes"] as? [String] ?? [] { SecretAudit.record(secret: code) }
    }
}
