internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyOpenSSL

/// The WebAuthn L3 verifier (§7.1 registration, §7.2 authentication) behind the
/// `CredentialVerifier` port, for one relying-party configuration.
package struct WebAuthnCredentialVerifier: Sendable {
    package let configuration: WebAuthnVerifierConfiguration
    /// SHA-256 of the RP ID, computed once.
    let relyingPartyIDHash: [UInt8]
    let anchorsForAllFormats: [Certificate]
    let anchorsByFormat: [String: [Certificate]]
    let decoder = CBORDecoder()
    /// Stored credential keys already parsed (sign-ins reuse them).
    let keyCache = COSEKeyCache()

    /// Parses the trust anchors once; an anchor that is not a DER certificate is refused.
    package init(configuration: WebAuthnVerifierConfiguration) throws(WebAuthnConfigurationError) {
        self.configuration = configuration
        relyingPartyIDHash = Digest.sha256(Array(configuration.relyingPartyID.utf8))
        let anchors = configuration.trustAnchors
        anchorsForAllFormats = try Self.parse(anchors.allFormats, format: nil, files: anchors.files)
        var byFormat: [String: [Certificate]] = [:]
        for (format, ders) in anchors.byFormat {
            byFormat[format] = try Self.parse(ders, format: format, files: anchors.files)
        }
        anchorsByFormat = byFormat
    }

    private static func parse(_ ders: [[UInt8]], format: String?, files: [[UInt8]: String])
        throws(WebAuthnConfigurationError) -> [Certificate]
    {
        var certificates: [Certificate] = []
        for (index, der) in ders.enumerated() {
            guard let certificate = try? Certificate(der: der) else {
                throw .invalidTrustAnchor(format: format, index: index, file: files[der])
            }
            certificates.append(certificate)
        }
        return certificates
    }

    /// The anchors that apply to one attestation format.
    func anchors(for format: String) -> [Certificate] { anchorsForAllFormats + (anchorsByFormat[format] ?? []) }
}
