import Foundation
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

/// The reference web client at `/`: served from memory with its own caching and a strict
/// Content-Security-Policy, only the files present at start, and nothing when `WEB_CLIENT=off`.
@Suite struct WebClientTests {
    static let modules = [
        "app.js", "api.js", "webauthn.js", "account.js", "passkeys.js", "password.js", "recovery.js",
        "sessions.js", "deletion.js", "messages.js", "session.js", "ui.js", "email.js", "email-sign-in.js",
    ]
    /// Modules the server makes when it loads the folder (not files in it).
    static let generatedModules = [AuthenticatorNamesScript.fileName]
    static let assets: [(name: String, contentType: String)] =
        modules.map { ($0, "text/javascript; charset=utf-8") } + [
            ("style.css", "text/css; charset=utf-8"), ("icon.svg", "image/svg+xml"),
        ]

    @Test func indexIsHTMLWithAStrictPolicyAndNoInlineScriptOrStyle() async throws {
        try await withServer { server, _ in
            let page = try await server.client.send("GET", "/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.headers["cache-control"] == "no-cache")
            #expect(page.headers["x-content-type-options"] == "nosniff")
            #expect(page.headers["referrer-policy"] == "no-referrer")
            let policy = try #require(page.headers["content-security-policy"])
            for directive in [
                "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                "frame-ancestors 'none'", "base-uri 'none'",
            ] {
                #expect(policy.contains(directive), "\(directive)")
            }
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            let html = page.text
            #expect(html.contains(#"<script type="module" src="/assets/app.js"></script>"#))
            #expect(html.contains(#"autocomplete="username webauthn""#))
            // Every <script> has a src; no style attribute, <style> element or on…= handler.
            let scripts = html.components(separatedBy: "<script").dropFirst()
            #expect(!scripts.isEmpty && scripts.allSatisfy { $0.prefix { $0 != ">" }.contains(" src=") })
            #expect(!html.contains("style=") && !html.contains("<style"))
            let handler = try Regex(#"\son[a-z]+\s*="#).ignoresCase()
            #expect(html.firstMatch(of: handler) == nil)
            #expect(!html.contains("javascript:"))
        }
    }

    @Test func assetsHaveTheirContentTypeAndCacheHeader() async throws {
        try await withServer { server, _ in
            for asset in Self.assets {
                let response = try await server.client.send("GET", "/assets/\(asset.name)")
                #expect(response.status == 200, "\(asset.name)")
                #expect(response.headers["content-type"] == asset.contentType, "\(asset.name)")
                #expect(response.headers["cache-control"] == "public, max-age=300", "\(asset.name)")
                #expect(response.headers["content-security-policy"]?.contains("script-src 'self'") == true)
                #expect(response.headers["x-content-type-options"] == "nosniff")
                let onDisk = try Data(
                    contentsOf: PackagePaths.root.appendingPathComponent("WebClient/assets/\(asset.name)"))
                #expect(response.body == onDisk, "\(asset.name)")
            }
            // The API keeps its own policy.
            let api = try await server.client.send("POST", "/v1/passkeys/authentications")
            #expect(api.headers["cache-control"] == "no-store")
        }
    }

    /// Every module the page imports is served (a missing one breaks the page in the browser
    /// only), and the page keeps to the limits of WebClientFiles.
    @Test func everyImportedModuleIsServedWithinTheLimits() async throws {
        let folder = PackagePaths.root.appendingPathComponent("WebClient/assets")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count <= WebClientFiles.maximumAssetCount)
        let importPattern = try Regex(#"from "\./([a-z-]+\.js)""#)
        var imported: Set<String> = ["app.js"]
        for name in names where name.hasSuffix(".js") {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(source.utf8.count <= WebClientFiles.maximumFileSize, "\(name)")
            for match in source.matches(of: importPattern) {
                if let module = match.output[1].substring { imported.insert(String(module)) }
            }
        }
        let listed = Set(Self.modules + Self.generatedModules)
        let unlisted = imported.subtracting(listed)
        #expect(unlisted.isEmpty, "imported but not in the test's list: \(unlisted.sorted())")
        #expect(imported == listed, "listed but imported by no module: \(listed.subtracting(imported))")
        try await withServer { server, _ in
            for name in imported.sorted() {
                let response = try await server.client.send("GET", "/assets/\(name)")
                #expect(response.status == 200, "\(name)")
                #expect(response.headers["content-type"] == "text/javascript; charset=utf-8", "\(name)")
            }
        }
    }

    @Test func anETagAnswersNotModified() async throws {
        try await withServer { server, _ in
            let first = try await server.client.send("GET", "/assets/app.js")
            let etag = try #require(first.headers["etag"])
            let again = try await server.client.send("GET", "/assets/app.js", headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            let other = try await server.client.send("GET", "/", headers: ["If-None-Match": etag])
            #expect(other.status == 200)
        }
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        try await withServer { server, _ in
            for path in ["/", "/assets/style.css"] {
                let response = try await server.client.send("HEAD", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.body.isEmpty)
                #expect(response.headers["content-security-policy"] != nil)
            }
        }
    }

    @Test func unknownAssetsAndTraversalAttemptsAre404() async throws {
        try await withServer { server, _ in
            for path in ["/assets/nope.js", "/assets/", "/assets/.DS_Store", "/index.html", "/assets/app.js/x"] {
                let response = try await server.client.send("GET", path)
                #expect(response.status == 404, "\(path)")
                #expect(response.headers["content-type"] == "application/problem+json", "\(path)")
                #expect(response.code == "not-found", "\(path)")
            }
            for target in [
                "/assets/../Package.swift", "/assets/%2e%2e/Package.swift", "/assets/%2e%2e/x",
                "/assets/..%2fPackage.swift",
                "/assets/%2E%2E%2F%2E%2E%2FPackage.swift", "/assets/..", "/assets/app.js%00",
            ] {
                let response = try await RawRequest.send(port: server.server.port, target: target)
                #expect(response.status == 404, "\(target)")
                #expect(!response.body.contains("swift-tools-version"), "\(target)")
            }
        }
    }

    @Test func webClientOffServesNothing() async throws {
        try await withServer(environment: ["WEB_CLIENT": "off"]) { server, _ in
            for path in ["/", "/assets/app.js", "/assets/style.css"] {
                let response = try await server.client.send("GET", path)
                #expect(response.status == 404, "\(path)")
                #expect(response.code == "not-found")
            }
            #expect(try await server.client.send("GET", "/healthz").status == 200)
        }
    }

    @Test func aMissingFolderIsAOneLineConfigurationError() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-web-client-\(UUID())")
        #expect {
            _ = try WebClientFiles.load(from: folder, digester: OpenSSLSecretDigester())
        } throws: { error in
            let message = String(describing: error)
            return message.contains("PASSKEY_WEB_CLIENT_DIR") && !message.contains("\n")
        }
    }
}
