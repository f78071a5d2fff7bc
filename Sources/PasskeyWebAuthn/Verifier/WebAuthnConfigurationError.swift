/// A verifier configuration that cannot be used.
package enum WebAuthnConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A trust anchor is not a DER X.509 certificate: its format key (nil: all formats), its
    /// position among that format's anchors, and the file it came from when known.
    case invalidTrustAnchor(format: String?, index: Int, file: String?)
    /// The trust anchors folder (or one of its format subfolders) cannot be listed.
    case trustAnchorsDirectoryUnreadable(path: String)
    /// A `.pem` file cannot be read, is too large, or holds no valid certificate.
    case invalidTrustAnchorFile(path: String)
    /// A subfolder is not named after an attestation statement format (`tpm`, `packed`, …).
    case unknownTrustAnchorFormat(folder: String)
    /// The folder holds no `.pem` file at all (the `trusted` policy would refuse everything).
    case noTrustAnchors(path: String)
    /// More files than the loader reads.
    case tooManyTrustAnchorFiles(path: String)

    /// One line for the start-up error (paths are the operator's own configuration, not client input).
    package var description: String {
        switch self {
        case .invalidTrustAnchor(let format, let index, let file):
            "trust anchor at index \(index) \(format.map { "of format folder \($0)/" } ?? "for all formats (top folder)")"
                + "\(file.map { " (from \($0))" } ?? "") is not a DER X.509 certificate"
        case .trustAnchorsDirectoryUnreadable(let path): "cannot list trust anchors folder \(path)"
        case .invalidTrustAnchorFile(let path): "\(path) is not a readable PEM certificate file"
        case .unknownTrustAnchorFormat(let folder):
            "trust anchors subfolder \(folder) is not an attestation format (none, packed, fido-u2f, apple, tpm, android-key, android-safetynet)"
        case .noTrustAnchors(let path): "no .pem trust anchors in \(path)"
        case .tooManyTrustAnchorFiles(let path): "too many files in trust anchors folder \(path)"
        }
    }
}
