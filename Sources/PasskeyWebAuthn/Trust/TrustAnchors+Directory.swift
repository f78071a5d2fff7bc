internal import Foundation
internal import PasskeyOpenSSL

extension TrustAnchors {
    /// Largest PEM file read.
    static let maximumFileSize = 1 << 20
    /// Most entries read from one folder.
    static let maximumEntries = 512

    /// Loads the anchors of `PASSKEY_TRUST_ANCHORS_DIR` (WebAuthn L3 §7.1 step 23–24: the RP's
    /// trust anchors per attestation format). Every `*.pem` directly in `directory` applies to all
    /// formats; every `*.pem` in a subfolder named after a format (`tpm/`, `android-key/`,
    /// `packed/`, …) to that format only. Other files (README.md) and hidden entries are ignored;
    /// deeper folders are not read. A subfolder with another name, a `.pem` without a valid
    /// certificate, or a folder without any `.pem` is an error, so that a typo cannot silently
    /// weaken or empty the trust store. The package ships a curated folder: `TrustAnchors/`.
    package static func load(directory: String) throws(WebAuthnConfigurationError) -> TrustAnchors {
        var anchors = TrustAnchors()
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        for entry in try entries(of: root) {
            let url = root.appendingPathComponent(entry)
            if isDirectory(url) {
                guard let format = AttestationStatementFormat(rawValue: entry) else {
                    throw .unknownTrustAnchorFormat(folder: entry)
                }
                for file in try entries(of: url) where file.hasSuffix(".pem") {
                    let fileURL = url.appendingPathComponent(file)
                    guard !isDirectory(fileURL) else { continue }
                    let blocks = try certificates(at: fileURL, into: &anchors)
                    anchors.byFormat[format.rawValue, default: []] += blocks
                }
            } else if entry.hasSuffix(".pem") {
                let blocks = try certificates(at: url, into: &anchors)
                anchors.allFormats += blocks
            }
        }
        guard !anchors.allFormats.isEmpty || !anchors.byFormat.isEmpty else { throw .noTrustAnchors(path: directory) }
        return anchors
    }

    /// The visible entries of a folder, sorted (so the order of anchors is reproducible).
    private static func entries(of url: URL) throws(WebAuthnConfigurationError) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
            throw .trustAnchorsDirectoryUnreadable(path: url.path)
        }
        guard names.count <= maximumEntries else { throw .tooManyTrustAnchorFiles(path: url.path) }
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    /// The DER certificates of one PEM file, each checked to parse; records the file in `anchors.files`.
    private static func certificates(at url: URL, into anchors: inout TrustAnchors)
        throws(WebAuthnConfigurationError) -> [[UInt8]]
    {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? NSNumber, size.intValue <= maximumFileSize,
            let data = FileManager.default.contents(atPath: url.path),
            let text = String(data: data, encoding: .utf8),
            let blocks = PEM.certificates(in: text), !blocks.isEmpty,
            blocks.allSatisfy({ (try? Certificate(der: $0)) != nil })
        else { throw .invalidTrustAnchorFile(path: url.path) }
        for block in blocks where anchors.files[block] == nil { anchors.files[block] = url.path }
        return blocks
    }
}
