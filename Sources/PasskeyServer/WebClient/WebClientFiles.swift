internal import Foundation
internal import PasskeyApplication

/// The reference web client (`WebClient/`): `index.html`, (v3) `operator.html` (the operator page)
/// and the files directly inside `assets/`, read once at start, plus `assets/authenticator-names.js` made from the server's own
/// table (`AuthenticatorNamesScript`). Only these names are ever served, from memory, so no request
/// path reaches the file system (nothing to traverse).
struct WebClientFiles: Sendable {
    let index: StaticFile
    /// (v3) `operator.html`, served at `/operator/` while `OPERATOR_TOKEN` is set; nil when the
    /// folder has none.
    var operatorPage: StaticFile? = nil
    /// Asset file name (no folder) → file.
    let assets: [String: StaticFile]

    /// Bounds that keep a misplaced folder from being read into memory.
    static let maximumFileSize = 1 << 20
    static let maximumAssetCount = 64

    /// Reads `folder/index.html`, `folder/operator.html` (when present) and `folder/assets/*`; assets with an unknown extension, hidden
    /// files and subfolders are skipped. `digester` makes each file's ETag.
    static func load(from folder: URL, digester: any SecretDigester) throws(ConfigurationError) -> WebClientFiles {
        let fileManager = FileManager.default
        let index = try read(folder.appendingPathComponent("index.html"), digester)
        let operatorURL = folder.appendingPathComponent("operator.html")
        let operatorPage =
            fileManager.fileExists(atPath: operatorURL.path) ? try read(operatorURL, digester) : nil
        let assetsFolder = folder.appendingPathComponent("assets")
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: assetsFolder.path).sorted()
        } catch {
            throw problem("\(assetsFolder.path) cannot be read")
        }
        var assets: [String: StaticFile] = [:]
        for name in names where !name.hasPrefix(".") && StaticFile.contentType(forName: name) != nil {
            var isFolder: ObjCBool = false
            let url = assetsFolder.appendingPathComponent(name)
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            guard assets.count < maximumAssetCount else {
                throw problem("more than \(maximumAssetCount) files in \(assetsFolder.path)")
            }
            assets[name] = try read(url, digester)
        }
        assets[AuthenticatorNamesScript.fileName] = AuthenticatorNamesScript.make(
            from: KnownAuthenticatorNames.names, digester: digester)
        return WebClientFiles(index: index, operatorPage: operatorPage, assets: assets)
    }

    private static func read(_ url: URL, _ digester: any SecretDigester) throws(ConfigurationError) -> StaticFile {
        guard let contentType = StaticFile.contentType(forName: url.lastPathComponent),
            let data = FileManager.default.contents(atPath: url.path)
        else { throw problem("\(url.path) cannot be read") }
        guard data.count <= maximumFileSize else {
            throw problem("\(url.path) is larger than \(maximumFileSize) bytes")
        }
        return StaticFile(contentType: contentType, body: Array(data), digester: digester)
    }

    private static func problem(_ text: String) -> ConfigurationError {
        ConfigurationError(variable: "PASSKEY_WEB_CLIENT_DIR", problem: text)
    }
}
