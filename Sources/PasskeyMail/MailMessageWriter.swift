package import Foundation
package import PasskeyApplication
package import PasskeyDomain

/// Turns a `MailMessage` into RFC 5322 bytes (CRLF lines): `Date` (UTC), a `Message-ID` built
/// from the outbox row's ID (the same on every retry), `From`, `To`, `Subject` (RFC 2047 encoded
/// words when not ASCII), and a UTF-8 `text/plain` body in quoted-printable.
///
/// Quoted-printable, not 8bit: it is 7-bit clean, so it passes any relay whether or not it
/// offers 8BITMIME, and an ASCII line (the code, a link) stays readable as it is in the `.eml`
/// file `make run` writes. Lines starting with `.` are written `=2E…`, so no SMTP dot-stuffing is
/// needed (libcurl would do it anyway).
package struct MailMessageWriter: Sendable {
    package let from: EmailAddress

    package init(from: EmailAddress) { self.from = from }

    /// The message's bytes; refuses a CR or LF in a header value (header injection).
    package func render(_ message: MailMessage, date: Date) throws(MailTransportError) -> [UInt8] {
        for value in [message.recipient.value, message.subject, from.value]
        where value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
            throw MailTransportError(.permanent, cause: "a header value contains a line break")
        }
        let domain = from.value.split(separator: "@").last.map(String.init) ?? "localhost"
        var lines = [
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(message.id.uuidString.lowercased())@\(domain)>",
            "From: \(from.value)",
            "To: \(message.recipient.value)",
        ]
        lines.append(contentsOf: Self.subjectLines(message.subject))
        lines += [
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
        ]
        let head = lines.joined(separator: "\r\n") + "\r\n"
        return Array(head.utf8) + Self.quotedPrintable(message.body) + Array("\r\n".utf8)
    }

    /// `Tue, 01 Dec 2026 23:15:10 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(days[(c.weekday ?? 1) - 1]), \(two(c.day)) \(months[(c.month ?? 1) - 1]) \(c.year ?? 1970) "
            + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }

    /// `Subject: …` as is when printable ASCII; else RFC 2047 `=?UTF-8?B?…?=` words of at most
    /// 45 bytes of UTF-8 each (72 characters, under the 75 of RFC 2047), split between Unicode
    /// scalars only, one per folded line.
    static func subjectLines(_ subject: String) -> [String] {
        if subject.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return ["Subject: \(subject)"] }
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in subject.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > 45 {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(encodedWord(chunk)) }
        return words.enumerated().map { index, word in index == 0 ? "Subject: \(word)" : " \(word)" }
    }

    static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?\(Data(bytes).base64EncodedString())?="
    }

    /// RFC 2045 quoted-printable of the UTF-8 text, with CRLF hard line breaks and soft breaks
    /// (`=`) keeping every line at most 76 characters.
    static func quotedPrintable(_ text: String) -> [UInt8] {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var out: [UInt8] = []
        for (index, line) in normalized.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out += Array("\r\n".utf8) }
            let bytes = Array(line.utf8)
            var length = 0
            for (position, byte) in bytes.enumerated() {
                let isLast = position == bytes.count - 1
                let literal =
                    (byte >= 33 && byte <= 126 && byte != 61 && !(byte == 46 && position == 0))
                    || (byte == 32 && !isLast)
                let token: [UInt8] = literal ? [byte] : Array(String(format: "=%02X", byte).utf8)
                // A soft break leaves room for its own "=".
                if length + token.count > 75 {
                    out += Array("=\r\n".utf8)
                    length = 0
                }
                out += token
                length += token.count
            }
        }
        return out
    }
}
