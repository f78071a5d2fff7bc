import Foundation
import PasskeyWebAuthn

/// Locates the shared real-authenticator vectors: `$PASSKEY_WEBAUTHN_VECTORS`, else
/// `<package root>/../shared/webauthn-vectors` (the root found from this file's path).
enum WebAuthnVectors {
    static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["PASSKEY_WEBAUTHN_VECTORS"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/webauthn-vectors")
    }

    /// The package root, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // PasskeyWebAuthnTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
    }

    /// The curated default anchors shipped with the package.
    static var shippedTrustAnchors: URL { packageRoot.appendingPathComponent("TrustAnchors", isDirectory: true) }

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
