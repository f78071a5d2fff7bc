import Foundation
import PasskeyTestSupport
import PasskeyWire
import Testing

@testable import PasskeyServer

@Suite struct OperationsTests {
    @Test func healthReadinessAndMetrics() async throws {
        try await withServer { server, _ in
            let client = server.client
            #expect(try await client.send("GET", "/healthz").status == 200)
            #expect(try await client.send("GET", "/readyz").status == 200)
            _ = try await client.send("POST", "/v1/passkeys/authentications")
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
            #expect(
                metrics.text.contains(
                    "passkey_http_requests_total{route=\"/v1/passkeys/authentications\",method=\"POST\",status=\"200\"} 1"
                ))
            #expect(
                metrics.text.contains(
                    "passkey_http_request_duration_seconds_bucket{route=\"/v1/passkeys/authentications\",method=\"POST\",le=\"+Inf\"} 1"
                ))
        }
    }

    @Test func metricLabelsStayBoundedWhateverClientsSend() async throws {
        try await withServer { server, _ in
            let odd = try await server.client.send("FROBNICATE", "/healthz")
            #expect(odd.status == 405)
            _ = try await server.client.send("GET", "/no/such/\(UUID().uuidString)")
            let metrics = try await server.client.send("GET", "/metrics").text
            #expect(metrics.contains("method=\"OTHER\""))
            #expect(!metrics.contains("FROBNICATE"))
            #expect(metrics.contains("route=\"unmatched\""))
            #expect(!metrics.contains("/no/such/"))
        }
    }

    @Test func wellKnownDocumentsAre404UntilConfigured() async throws {
        try await withServer { server, _ in
            for path in [
                "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json", "/.well-known/webauthn",
                "/.well-known/passkey-endpoints",
            ] {
                let response = try await server.client.send("GET", path)
                #expect(response.status == 404, "\(path)")
            }
        }
    }

    @Test func wellKnownDocumentsComeFromConfiguration() async throws {
        let fingerprint = (0..<32).map { String(format: "%02x", $0) }.joined(separator: ":")
        let environment = [
            "PASSKEY_APPLE_APP_IDS": "ABCDE12345.com.example.app",
            "PASSKEY_ANDROID_APPS": "com.example.android@SHA256:\(fingerprint)",
            "PASSKEY_RELATED_ORIGINS": "https://example.co.jp,https://example.de",
            "PASSKEY_ENROLL_URL": "https://example.com/passkeys/new",
            "PASSKEY_MANAGE_URL": "https://example.com/passkeys",
        ]
        try await withServer(environment: environment) { server, _ in
            let client = server.client
            let aasa = try await client.send("GET", "/.well-known/apple-app-site-association")
            #expect(aasa.headers["content-type"] == "application/json")
            #expect(
                (aasa.json["webcredentials"] as? [String: Any])?["apps"] as? [String] == ["ABCDE12345.com.example.app"])
            let links = try await client.send("GET", "/.well-known/assetlinks.json").jsonArray
            let target = links.first?["target"] as? [String: Any]
            #expect(links.first?["relation"] as? [String] == ["delegate_permission/common.get_login_creds"])
            #expect(target?["package_name"] as? String == "com.example.android")
            #expect((target?["sha256_cert_fingerprints"] as? [String])?.first == fingerprint.uppercased())
            let related = try await client.send("GET", "/.well-known/webauthn")
            #expect(related.json["origins"] as? [String] == ["https://example.co.jp", "https://example.de"])
            let endpoints = try await client.send("GET", "/.well-known/passkey-endpoints")
            #expect(endpoints.string("enroll") == "https://example.com/passkeys/new")
            #expect(endpoints.string("manage") == "https://example.com/passkeys")
            // The Android app's key-hash origin is accepted by the verifier.
            #expect(server.app.configuration.verifierOrigins.contains { $0.hasPrefix("android:apk-key-hash:") })
        }
    }

    /// The OpenAPI file in the repository describes exactly the routes the server has (with
    /// `OPERATOR_TOKEN` set: without it the operator endpoint is not routed at all).
    @Test func openAPIMatchesTheRealRoutes() async throws {
        // Every optional path on: the operator's, and (v4) introspection, routed only with a client.
        let environment = [
            "OPERATOR_TOKEN": "operator-token-0123456789",
            "INTROSPECTION_CLIENTS": "gateway:introspection-secret-0123456789abcdef",
        ]
        try await withServer(environment: environment) { server, _ in
            let response = try await server.client.send("GET", "/openapi.json")
            #expect(response.status == 200)
            #expect(response.string("openapi")?.hasPrefix("3.1") == true)
            let paths = try #require(response.json["paths"] as? [String: [String: Any]])
            var documented = Set<String>()
            for (path, item) in paths {
                for method in item.keys where ["get", "post", "patch", "delete", "put"].contains(method) {
                    documented.insert("\(method.uppercased()) \(path)")
                }
            }
            let routed = Set(server.app.router.routes.map { "\($0.method.rawValue) \($0.pattern)" })
            #expect(documented == routed)
            let yaml = try await server.client.send("GET", "/openapi.yaml")
            #expect(yaml.headers["content-type"] == "application/yaml")
            #expect(yaml.body == response.body)
            // Every error code of the contract is listed.
            let schemas = (response.json["components"] as? [String: Any])?["schemas"] as? [String: Any]
            let codes =
                (((schemas?["Problem"] as? [String: Any])?["properties"] as? [String: Any])?["code"] as? [String: Any])?[
                    "enum"] as? [String]
            #expect(codes.map(Set.init) == Set(ErrorCode.allCases.map(\.rawValue)))
            #expect(codes?.count == ErrorCode.allCases.count)
        }
    }
}
