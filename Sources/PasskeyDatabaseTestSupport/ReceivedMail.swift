internal import Foundation

/// A message as `TestSMTPServer` (or a `.eml` file) holds it, decoded for assertions: headers
/// unfolded, the subject's RFC 2047 words decoded, the body's transfer encoding
/// (quoted-printable, base64, 7bit/8bit) undone. Lines are joined with "\n".
package struct ReceivedMail: Sendable, Hashable {
    /// Header fields in order, names as written.
    package let headers: [Header]
    package let subject: String
    package let body: String
    /// The raw message as stored.
    package let raw: String

    package struct Header: Sendable, Hashable {
        package let name: String
        package let value: String
    }

    /// The first value of the header `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The envelope recipients aiosmtpd recorded (`X-RcptTo`) and the `To` addresses, lowercased.
    package var recipients: Set<String> {
        let values = [header("X-RcptTo"), header("To")].compactMap { $0 }
        return Set(
            values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }

    package init(raw bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        raw = text
        let parts = text.components(separatedBy: "\n\n")
        let head = parts.first ?? ""
        let encodedBody = parts.dropFirst().joined(separator: "\n\n")
        var fields: [Header] = []
        for line in head.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first == " " || first == "\t", let last = fields.popLast() {
                fields.append(
                    Header(name: last.name, value: last.value + " " + line.trimmingCharacters(in: .whitespaces)))
            } else if let colon = line.firstIndex(of: ":") {
                fields.append(
                    Header(
                        name: String(line[..<colon]),
                        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        headers = fields
        let subjectValue = fields.first { $0.name.lowercased() == "subject" }?.value ?? ""
        subject = Self.decodeWords(subjectValue)
        let encoding =
            fields.first { $0.name.lowercased() == "content-transfer-encoding" }?.value.lowercased() ?? "7bit"
        switch encoding {
        case "quoted-printable": body = String(decoding: Self.decodeQuotedPrintable(encodedBody), as: UTF8.self)
        case "base64":
            let joined = encodedBody.filter { !$0.isWhitespace }
            body = Data(base64Encoded: joined).map { String(decoding: $0, as: UTF8.self) } ?? encodedBody
        default: body = encodedBody
        }
    }

    /// RFC 2047: `=?charset?B|Q?…?=` words (UTF-8 or ASCII), whitespace between adjacent words dropped.
    static func decodeWords(_ value: String) -> String {
        let pattern = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/
        var out = ""
        var rest = Substring(value)
        var lastWasWord = false
        while let match = rest.firstMatch(of: pattern) {
            let between = rest[..<match.range.lowerBound]
            if !(lastWasWord && between.allSatisfy(\.isWhitespace)) { out += between }
            let payload = String(match.output.3)
            let bytes: [UInt8]
            if match.output.2.lowercased() == "b" {
                bytes = Data(base64Encoded: payload).map { Array($0) } ?? Array(payload.utf8)
            } else {
                bytes = decodeQuotedPrintable(payload.replacingOccurrences(of: "_", with: " "))
            }
            out += String(decoding: bytes, as: UTF8.self)
            rest = rest[match.range.upperBound...]
            lastWasWord = true
        }
        return out + rest
    }

    /// RFC 2045 quoted-printable (soft breaks `=\n` removed).
    static func decodeQuotedPrintable(_ text: String) -> [UInt8] {
        let bytes = Array(text.replacingOccurrences(of: "=\n", with: "").utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "="), index + 2 < bytes.count,
                let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                out.append(value)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
