import PasskeyWebAuthn
import Testing

/// `WebAuthnCredentialVerifier(configuration:)` parses every anchor once; one that is not a DER
/// X.509 certificate stops it with an error naming the format folder, the anchor and its file.
@Suite struct VerifierTrustAnchorTests {
    /// Not a certificate: an empty DER SEQUENCE.
    static let notACertificate: [UInt8] = [0x30, 0x00]

    func verifier(_ anchors: TrustAnchors) throws(WebAuthnConfigurationError) -> WebAuthnCredentialVerifier {
        try WebAuthnCredentialVerifier(
            configuration: WebAuthnVerifierConfiguration(
                relyingPartyID: "example.com", allowedOrigins: ["https://example.com"], attestationPolicy: .trusted,
                trustAnchors: anchors))
    }

    @Test func aBadAnchorOfAFormatNamesItsFolderAndFile() throws {
        let root = try TrustAnchors.load(directory: WebAuthnVectors.shippedTrustAnchors.path)
        let tpm = try #require(root.byFormat["tpm"])
        let anchors = TrustAnchors(
            byFormat: ["tpm": tpm + [Self.notACertificate]],
            files: [Self.notACertificate: "/etc/anchors/tpm/broken.pem"])
        let expected = WebAuthnConfigurationError.invalidTrustAnchor(
            format: "tpm", index: tpm.count, file: "/etc/anchors/tpm/broken.pem")
        #expect(throws: expected) { try verifier(anchors) }
        #expect(
            expected.description
                == "trust anchor at index 1 of format folder tpm/ (from /etc/anchors/tpm/broken.pem) is not a DER X.509 certificate"
        )
    }

    @Test func aBadAnchorForAllFormatsWithoutAFileNamesItsIndex() throws {
        let expected = WebAuthnConfigurationError.invalidTrustAnchor(format: nil, index: 0, file: nil)
        #expect(throws: expected) { try verifier(TrustAnchors(allFormats: [Self.notACertificate])) }
        #expect(
            expected.description
                == "trust anchor at index 0 for all formats (top folder) is not a DER X.509 certificate")
    }
}
