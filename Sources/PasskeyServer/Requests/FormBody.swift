internal import Foundation

/// An `application/x-www-form-urlencoded` body (RFC 7662 §2.1 requests are one): `name=value`
/// pairs joined by `&`, `+` for a space, percent-escapes decoded as UTF-8.
struct FormBody: Sendable {
    private let fields: [(name: String, value: String)]

    /// Nil when a pair is not form-encoded (a bad escape, bytes that are not UTF-8).
    init?(_ bytes: [UInt8]) {
        var fields: [(name: String, value: String)] = []
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decoded(parts[0]), let value = Self.decoded(parts.count > 1 ? parts[1] : "") else {
                return nil
            }
            fields.append((name, value))
        }
        self.fields = fields
    }

    /// Every value of `name`.
    func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// `+` is a space, then percent-decoding (also what RFC 6749 §2.3.1 asks of a client's ID
    /// and secret inside HTTP Basic).
    static func decoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
