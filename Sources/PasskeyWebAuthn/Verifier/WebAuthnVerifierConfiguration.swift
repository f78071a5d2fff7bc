package import PasskeyDomain

/// The relying party's side of the ceremonies: who it is, where requests may come from,
/// which algorithms it offered, and how much it trusts attestation.
package struct WebAuthnVerifierConfiguration: Sendable {
    package var relyingPartyID: String
    /// Exact origins accepted in clientData (e.g. `https://example.com`, or an
    /// `android:apk-key-hash:` facet).
    package var allowedOrigins: Set<String>
    /// The algorithms offered in `pubKeyCredParams`, in order of preference.
    package var allowedAlgorithms: [COSEAlgorithm]
    package var attestationPolicy: AttestationPolicy
    package var trustAnchors: TrustAnchors

    package init(
        relyingPartyID: String, allowedOrigins: Set<String>,
        allowedAlgorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256],
        attestationPolicy: AttestationPolicy = .any, trustAnchors: TrustAnchors = TrustAnchors()
    ) {
        self.relyingPartyID = relyingPartyID
        self.allowedOrigins = allowedOrigins
        self.allowedAlgorithms = allowedAlgorithms
        self.attestationPolicy = attestationPolicy
        self.trustAnchors = trustAnchors
    }
}
