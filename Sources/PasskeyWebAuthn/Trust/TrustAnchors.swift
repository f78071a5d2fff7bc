/// Root certificates (DER) that attestation chains may end in, for all formats or per format.
package struct TrustAnchors: Sendable, Hashable {
    /// Anchors valid for every attestation format.
    package var allFormats: [[UInt8]]
    /// Anchors for one format, keyed by its `fmt` string (e.g. `"packed"`).
    package var byFormat: [String: [[UInt8]]]
    /// The file each anchor was read from (its path), when `load(directory:)` read it: so that a
    /// configuration error can name the file, not only the anchor's position.
    package var files: [[UInt8]: String]

    package init(allFormats: [[UInt8]] = [], byFormat: [String: [[UInt8]]] = [:], files: [[UInt8]: String] = [:]) {
        self.allFormats = allFormats
        self.byFormat = byFormat
        self.files = files
    }

    /// The DER anchors that apply to `format`.
    package func anchors(for format: String) -> [[UInt8]] { allFormats + (byFormat[format] ?? []) }
}
