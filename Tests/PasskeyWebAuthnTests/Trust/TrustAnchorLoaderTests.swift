import Foundation
import PasskeyWebAuthn
import Testing

/// `TrustAnchors.load(directory:)`: the layout of PASSKEY_TRUST_ANCHORS_DIR.
@Suite struct TrustAnchorLoaderTests {
    /// A fresh folder under the temporary directory, removed by `cleanUp`.
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("anchors-\(UUID().uuidString)")

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: root) }

    func pem(_ name: String) throws -> String {
        try String(
            contentsOf: WebAuthnVectors.shippedTrustAnchors.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func topLevelFilesApplyToAllFormatsAndSubfoldersToOne() throws {
        defer { cleanUp() }
        try write("apple-root.pem", try pem("apple/apple-webauthn-root-ca.pem"))
        try write("tpm/microsoft.pem", try pem("tpm/microsoft-tpm-root-ca-2014.pem"))
        try write(
            "android-key/two.pem",
            try pem("android-key/google-hardware-attestation-root-2019.pem")
                + (try pem("android-key/google-hardware-attestation-root-2022.pem")))
        try write("README.md", "not a certificate")
        try write("tpm/notes.txt", "ignored")
        let anchors = try TrustAnchors.load(directory: root.path)
        #expect(anchors.allFormats.count == 1)
        #expect(anchors.byFormat["tpm"]?.count == 1)
        #expect(anchors.byFormat["android-key"]?.count == 2)
        #expect(anchors.anchors(for: "tpm").count == 2)
        #expect(anchors.anchors(for: "packed").count == 1)
        #expect(throws: Never.self) {
            try WebAuthnCredentialVerifier(
                configuration: WebAuthnVerifierConfiguration(
                    relyingPartyID: "example.com", allowedOrigins: ["https://example.com"],
                    attestationPolicy: .trusted, trustAnchors: anchors))
        }
    }

    @Test func eachAnchorRemembersItsFile() throws {
        defer { cleanUp() }
        try write("apple-root.pem", try pem("apple/apple-webauthn-root-ca.pem"))
        try write(
            "android-key/two.pem",
            try pem("android-key/google-hardware-attestation-root-2019.pem")
                + (try pem("android-key/google-hardware-attestation-root-2022.pem")))
        let anchors = try TrustAnchors.load(directory: root.path)
        let apple = try #require(anchors.allFormats.first)
        let android = try #require(anchors.byFormat["android-key"])
        #expect(anchors.files[apple] == root.appendingPathComponent("apple-root.pem").path)
        #expect(
            android.map { anchors.files[$0] }
                == Array(repeating: root.appendingPathComponent("android-key/two.pem").path, count: 2))
        #expect(anchors.files.count == 3)
    }

    @Test func unknownFormatFolderIsRefused() throws {
        defer { cleanUp() }
        try write("tpms/microsoft.pem", try pem("tpm/microsoft-tpm-root-ca-2014.pem"))
        #expect(throws: WebAuthnConfigurationError.unknownTrustAnchorFormat(folder: "tpms")) {
            try TrustAnchors.load(directory: root.path)
        }
    }

    @Test func invalidPEMIsRefused() throws {
        defer { cleanUp() }
        try write("packed/broken.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        #expect(
            throws: WebAuthnConfigurationError.invalidTrustAnchorFile(
                path: root.appendingPathComponent("packed/broken.pem").path)
        ) {
            try TrustAnchors.load(directory: root.path)
        }
    }

    @Test func emptyOrMissingFolderIsRefused() throws {
        defer { cleanUp() }
        #expect(throws: WebAuthnConfigurationError.trustAnchorsDirectoryUnreadable(path: root.path)) {
            try TrustAnchors.load(directory: root.path)
        }
        try write("README.md", "nothing here")
        #expect(throws: WebAuthnConfigurationError.noTrustAnchors(path: root.path)) {
            try TrustAnchors.load(directory: root.path)
        }
    }

    @Test func shippedFolderHoldsTheDocumentedAnchors() throws {
        let anchors = try TrustAnchors.load(directory: WebAuthnVectors.shippedTrustAnchors.path)
        #expect(anchors.allFormats.isEmpty)
        #expect(
            anchors.byFormat.mapValues(\.count) == [
                "apple": 1, "tpm": 1, "android-key": 4, "android-safetynet": 2, "packed": 1, "fido-u2f": 1,
            ])
    }
}
