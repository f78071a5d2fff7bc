import Foundation
import PasskeyTestSupport
import PasskeyWebAuthn

/// Locates the shared real-authenticator vectors: `$PASSKEY_WEBAUTHN_VECTORS`, else
/// `<package root>/../shared/webauthn-vectors` (`PackagePaths`, so this file's folder does not matter).
enum WebAuthnVectors {
    static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["PASSKEY_WEBAUTHN_VECTORS"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return PackagePaths.shared.appendingPathComponent("webauthn-vectors")
    }

    /// The curated default anchors shipped with the package.
    static var shippedTrustAnchors: URL { PackagePaths.root.appendingPathComponent("TrustAnchors", isDirectory: true) }

    static var vectorsDirectory: URL { directory.appendingPathComponent("vectors", isDirectory: true) }

    /// The vector file names, sorted; empty when the folder is missing (a separate test fails then).
    static var fileNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: vectorsDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func load(_ fileName: String) throws -> CapturedCeremony {
        let data = try Data(contentsOf: vectorsDirectory.appendingPathComponent(fileName))
        return try JSONDecoder().decode(CapturedCeremony.self, from: data)
    }
}
