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
        "activity.js", "user-agent.js", "operator.js", "charts.js", "operator-webhooks.js",
        "operator-accounts.js", "language.js", "catalogue-en.js", "catalogue-ja.js",
    ]
    /// The entry points of the two pages (`index.html`, `operator.html`).
    static let entryModules: Set<String> = ["app.js", "operator.js"]
    static let operatorToken = "operator-token-for-tests-0123456789"
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
            #expect(html.contains(#"id="activity-list""#) && html.contains(#"id="not-me""#))
            try Self.expectNoInlineScriptOrStyle(html)
        }
    }

    /// Every <script> has a src; no style attribute, <style> element, on…= handler or javascript: URL.
    static func expectNoInlineScriptOrStyle(_ html: String) throws {
        let scripts = html.components(separatedBy: "<script").dropFirst()
        #expect(!scripts.isEmpty && scripts.allSatisfy { $0.prefix { $0 != ">" }.contains(" src=") })
        #expect(!html.contains("style=") && !html.contains("<style"))
        let handler = try Regex(#"\son[a-z]+\s*="#).ignoresCase()
        #expect(html.firstMatch(of: handler) == nil)
        #expect(!html.contains("javascript:"))
    }

    /// (v3) `/operator/` (and `/operator`) is the operator page while OPERATOR_TOKEN is set: served
    /// like `/`, with the same policy, its own module and nothing inline. Serving it needs no token.
    @Test func operatorPageIsServedWithTheSamePolicyWhileTheTokenIsSet() async throws {
        try await withServer(environment: ["OPERATOR_TOKEN": Self.operatorToken]) { server, _ in
            let index = try await server.client.send("GET", "/")
            let onDisk = try Data(contentsOf: PackagePaths.root.appendingPathComponent("WebClient/operator.html"))
            for path in ["/operator/", "/operator"] {
                let page = try await server.client.send("GET", path)
                #expect(page.status == 200, "\(path)")
                #expect(page.headers["content-type"] == "text/html; charset=utf-8")
                #expect(page.headers["cache-control"] == "no-cache")
                #expect(page.headers["x-content-type-options"] == "nosniff")
                #expect(page.headers["referrer-policy"] == "no-referrer")
                #expect(page.headers["content-security-policy"] == index.headers["content-security-policy"])
                #expect(page.headers["content-security-policy"] == WebClientController.contentSecurityPolicy)
                #expect(page.body == onDisk, "\(path)")
                #expect(page.text.contains(#"<script type="module" src="/assets/operator.js"></script>"#))
                #expect(page.text.contains(#"type="password""#))
                try Self.expectNoInlineScriptOrStyle(page.text)
            }
            let head = try await server.client.send("HEAD", "/operator/")
            #expect(head.status == 200 && head.body.isEmpty)
            let post = try await server.client.send("POST", "/operator/")
            #expect(post.status == 405)
            #expect(try await server.client.send("GET", "/assets/operator.js").status == 200)
        }
    }

    @Test func operatorPageIs404WhileTheTokenIsUnset() async throws {
        for environment in [[:], ["OPERATOR_TOKEN": ""]] {
            try await withServer(environment: environment) { server, _ in
                #expect(try await server.client.send("GET", "/").status == 200)
                for path in ["/operator/", "/operator", "/operator/index.html"] {
                    let response = try await server.client.send("GET", path)
                    #expect(response.status == 404, "\(path)")
                    #expect(response.headers["content-type"] == "application/problem+json", "\(path)")
                    #expect(response.code == "not-found", "\(path)")
                }
            }
        }
    }

    @Test func operatorPageIsOffWithTheWebClient() async throws {
        try await withServer(environment: ["OPERATOR_TOKEN": Self.operatorToken, "WEB_CLIENT": "off"]) { server, _ in
            let response = try await server.client.send("GET", "/operator/")
            #expect(response.status == 404)
        }
    }

    /// The token is kept in memory only: neither the operator page's modules nor the ones they
    /// import touch storage or cookies.
    @Test func operatorPageKeepsTheTokenInMemoryOnly() throws {
        let folder = PackagePaths.root.appendingPathComponent("WebClient/assets")
        for name in [
            "operator.js", "charts.js", "api.js", "ui.js", "operator-webhooks.js", "operator-accounts.js",
            "activity.js",
            "messages.js", "user-agent.js", "catalogue-en.js", "catalogue-ja.js",
        ] {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for forbidden in ["localStorage", "sessionStorage", "document.cookie", "indexedDB"] {
                #expect(!source.contains(forbidden), "\(name) uses \(forbidden)")
            }
        }
        // (Issue 40) The language choice is the one thing stored, under its own key.
        let language = try String(contentsOf: folder.appendingPathComponent("language.js"), encoding: .utf8)
        for forbidden in ["sessionStorage", "document.cookie", "indexedDB"] {
            #expect(!language.contains(forbidden), "language.js uses \(forbidden)")
        }
        let calls = language.matches(of: try Regex(#"localStorage\.[a-zA-Z]+\([^)]*\)"#)).map {
            String(language[$0.range])
        }
        #expect(calls == ["localStorage.getItem(LANGUAGE_KEY)", "localStorage.setItem(LANGUAGE_KEY, language)"])
        #expect(language.contains(#"const LANGUAGE_KEY = "passkey-server.language";"#))
        let source = try String(contentsOf: folder.appendingPathComponent("operator.js"), encoding: .utf8)
        let imports = source.matches(of: try Regex(#"from "\./([a-z-]+\.js)""#)).compactMap { $0.output[1].substring }
        #expect(
            Set(imports.map(String.init)) == [
                "api.js", "ui.js", "language.js", "charts.js", "operator-webhooks.js", "operator-accounts.js",
            ])
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
        var imported = Self.entryModules
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
        try await withServer(transport: .socket) { server, _ in
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
                let response = try await RawRequest.send(port: server.server!.port, target: target)
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
