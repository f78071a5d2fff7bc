/// Root certificates (DER) that attestation chains may end in, for all formats or per format.
package struct TrustAnchors: Sendable, Hashable {
    /// Anchors valid for every attestation format.
    package var allFormats: [[UInt8]]
    /// Anchors for one format, keyed by its `fmt` string (e.g. `"packed"`).
    package var byFormat: [String: [[UInt8]]]

    package init(allFormats: [[UInt8]] = [], byFormat: [String: [[UInt8]]] = [:]) {
        self.allFormats = allFormats
        self.byFormat = byFormat
    }

    /// The DER anchors that apply to `format`.
    package func anchors(for format: String) -> [[UInt8]] { allFormats + (byFormat[format] ?? []) }
}
