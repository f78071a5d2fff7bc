internal import Foundation

/// Reads `-----BEGIN CERTIFICATE-----` blocks (RFC 7468) into DER bytes.
package enum PEM {
    /// Every certificate block of `text`, in order; nil when a block is not valid base64
    /// or an END line is missing.
    package static func certificates(in text: String) -> [[UInt8]]? {
        var blocks: [[UInt8]] = []
        var body: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line == "-----BEGIN CERTIFICATE-----" {
                guard body == nil else { return nil }
                body = ""
            } else if line == "-----END CERTIFICATE-----" {
                guard let base64 = body, let data = Data(base64Encoded: base64) else { return nil }
                blocks.append([UInt8](data))
                body = nil
            } else if let current = body {
                body = current + line
            }
        }
        return body == nil ? blocks : nil
    }
}
