import Foundation
import PasskeyOpenSSL
import Testing

/// (v4) A server with tokens and introspection on: a fresh `DATA_ENCRYPTION_KEY`, two audiences
/// and one introspection client.
enum TokenEnvironment {
    static let issuer = "https://auth.example.com"
    static let audience = "https://api.example.com"
    static let otherAudience = "https://reports.example.com"
    static let clientID = "gateway"
    static let clientSecret = "s3cret-of-the-gateway-that-is-long-enough-0123"

    static func on(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "DATA_ENCRYPTION_KEY": Data(SecureRandom.bytes(count: 32)).base64EncodedString(),
            "TOKEN_ISSUER": issuer, "TOKEN_AUDIENCES": "\(audience), \(otherAudience)",
            "INTROSPECTION_CLIENTS": "\(clientID):\(clientSecret)",
        ].merging(extra) { $1 }
    }

    /// `Authorization: Basic …` for `id` and `secret`, form-urlencoded first (RFC 6749 §2.3.1).
    static func basic(_ id: String = clientID, _ secret: String = clientSecret) -> String {
        func encoded(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
        }
        return "Basic " + Data("\(encoded(id)):\(encoded(secret))".utf8).base64EncodedString()
    }
}

/// A JWT's parts as JSON (unverified: what the tests look at after a verifier judged it).
struct DecodedJWT {
    let header: [String: Any]
    let claims: [String: Any]

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        func json(_ part: String) throws -> [String: Any] {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let data = try #require(Data(base64Encoded: base64))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        header = try json(parts[0])
        claims = try json(parts[1])
    }
}

extension TestHTTPClient {
    /// `POST /v1/sessions/current/tokens`: the JWT (201 required).
    func serviceToken(_ token: String, audience: String? = nil) async throws -> String {
        let minted = try await send(
            "POST", "/v1/sessions/current/tokens", json: audience.map { ["audience": $0] } ?? [:], token: token)
        try #require(minted.status == 201, "token: \(minted.text)")
        return try #require(minted.string("token"))
    }

    /// `POST /v1/introspect` as RFC 7662 asks: form-encoded, HTTP Basic.
    func introspect(_ token: String, authorization: String? = TokenEnvironment.basic()) async throws -> TestResponse {
        let form = "token=" + token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if let authorization { headers["Authorization"] = authorization }
        return try await send("POST", "/v1/introspect", raw: Array(form.utf8), headers: headers)
    }
}
