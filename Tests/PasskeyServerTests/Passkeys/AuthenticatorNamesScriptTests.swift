import Foundation
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

/// The AAGUID → provider name table has one source, `KnownAuthenticatorNames`: the web client
/// gets it as `/assets/authenticator-names.js`, made from it when the web client is loaded.
@Suite struct AuthenticatorNamesScriptTests {
    static let webClient = PackagePaths.root.appendingPathComponent("WebClient")

    /// The table the module exports, read back as JSON.
    static func exportedTable(_ file: StaticFile) throws -> [String: String] {
        try exportedTable(file.body)
    }

    static func exportedTable(_ body: [UInt8]) throws -> [String: String] {
        let text = String(decoding: body, as: UTF8.self)
        let start = try #require(text.range(of: AuthenticatorNamesScript.declaration)).upperBound
        let end = try #require(text.range(of: ";", options: .backwards)).lowerBound
        let object = try JSONSerialization.jsonObject(with: Data(text[start..<end].utf8))
        return try #require(object as? [String: String])
    }

    @Test func theWebClientsTableIsTheServersTable() throws {
        let files = try WebClientFiles.load(from: Self.webClient, digester: OpenSSLSecretDigester())
        let script = try #require(files.assets[AuthenticatorNamesScript.fileName])
        #expect(script.contentType == "text/javascript; charset=utf-8")
        #expect(try Self.exportedTable(script) == KnownAuthenticatorNames.names)
        #expect(!KnownAuthenticatorNames.names.isEmpty)
    }

    @Test func theServedModuleExportsTheServersTable() async throws {
        try await withServer { server, _ in
            let response = try await server.client.send("GET", "/assets/\(AuthenticatorNamesScript.fileName)")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(try Self.exportedTable(Array(response.body)) == KnownAuthenticatorNames.names)
        }
    }

    /// No file of the web client carries an AAGUID of its own (a second table would drift).
    @Test func noFileOfTheWebClientNamesAnAAGUID() throws {
        let aaguid = try Regex("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
        let assets = Self.webClient.appendingPathComponent("assets")
        let names = try FileManager.default.contentsOfDirectory(atPath: assets.path)
        #expect(!names.contains(AuthenticatorNamesScript.fileName), "the table is made by the server, not kept here")
        for url in names.map({ assets.appendingPathComponent($0) }) + [
            Self.webClient.appendingPathComponent("index.html")
        ]
        where [".js", ".html", ".json", ".css"].contains(where: url.lastPathComponent.hasSuffix) {
            let text = try String(contentsOf: url, encoding: .utf8)
            let found = text.firstMatch(of: aaguid).map { String(text[$0.range]) }
            #expect(found == nil, "\(url.lastPathComponent)")
        }
        let messages = try String(contentsOf: assets.appendingPathComponent("messages.js"), encoding: .utf8)
        #expect(messages.contains(#"import { AUTHENTICATORS } from "./authenticator-names.js";"#))
    }

    /// A stale copy left in the folder does not replace the server's table.
    @Test func aFileOfTheSameNameInTheFolderIsReplaced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-client-\(UUID())")
        let assets = folder.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<!doctype html>".utf8).write(to: folder.appendingPathComponent("index.html"))
        try Data(#"export const AUTHENTICATORS = {"00000000-0000-0000-0000-000000000000":"Stale"};"#.utf8)
            .write(to: assets.appendingPathComponent(AuthenticatorNamesScript.fileName))
        let files = try WebClientFiles.load(from: folder, digester: OpenSSLSecretDigester())
        let script = try #require(files.assets[AuthenticatorNamesScript.fileName])
        #expect(try Self.exportedTable(script) == KnownAuthenticatorNames.names)
    }

    @Test func namesWithQuotesOrBackslashesStayOneJSONString() throws {
        let names = ["00000000-0000-0000-0000-000000000001": #"Say "hi" \ bye"#]
        #expect(
            try Self.exportedTable(AuthenticatorNamesScript.make(from: names, digester: OpenSSLSecretDigester()))
                == names)
    }
}
