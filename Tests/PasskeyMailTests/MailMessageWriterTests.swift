import Foundation
import PasskeyApplication
import PasskeyDomain
import Testing

@testable import PasskeyMail

@Suite struct MailMessageWriterTests {
    let writer = MailMessageWriter(from: EmailAddress("no-reply@example.com")!)
    let id = UUID(uuidString: "0B5E8D4A-1C2D-4E5F-8A9B-0C1D2E3F4A5B")!

    func render(subject: String, body: String) throws -> String {
        let message = MailMessage(id: id, recipient: EmailAddress("ann@example.org")!, subject: subject, body: body)
        return String(
            decoding: try writer.render(message, date: Date(timeIntervalSince1970: 1_796_166_910)), as: UTF8.self)
    }

    @Test func headersAreRFC5322WithCRLFLines() throws {
        let text = try render(subject: "Your code", body: "Your code:\n123456\n")
        let head = text.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        #expect(head.contains("Date: Tue, 01 Dec 2026 23:15:10 +0000"))
        #expect(head.contains("Message-ID: <0b5e8d4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b@example.com>"))
        #expect(head.contains("From: no-reply@example.com"))
        #expect(head.contains("To: ann@example.org"))
        #expect(head.contains("Subject: Your code"))
        #expect(head.contains("MIME-Version: 1.0"))
        #expect(head.contains("Content-Type: text/plain; charset=UTF-8"))
        #expect(head.contains("Content-Transfer-Encoding: quoted-printable"))
        // Every line ends in CRLF: no bare LF anywhere.
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(text.contains("\r\n\r\nYour code:\r\n123456\r\n"))
    }

    @Test func japaneseSubjectIsEncodedWordsSplitBetweenCharacters() throws {
        let subject = "確認コードをお送りします。パスキーサーバーからのお知らせです。ご確認ください"
        let lines = MailMessageWriter.subjectLines(subject)
        #expect(lines.count > 1)
        var decoded: [UInt8] = []
        for (index, line) in lines.enumerated() {
            let word = index == 0 ? String(line.dropFirst("Subject: ".count)) : String(line.dropFirst())
            #expect(word.count <= 75)
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?="))
            let payload = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            let bytes = try #require(Data(base64Encoded: String(payload)))
            // Each word is valid UTF-8 by itself: no sequence was split.
            #expect(String(validating: Array(bytes), as: UTF8.self) != nil)
            decoded += bytes
        }
        #expect(String(decoding: decoded, as: UTF8.self) == subject)
    }

    @Test func bodyIsQuotedPrintableWithShortLines() throws {
        let body = "こんにちは = hello\n.leading dot\n" + String(repeating: "x", count: 200) + " \nend"
        let encoded = String(decoding: MailMessageWriter.quotedPrintable(body), as: UTF8.self)
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.count <= 76 })
        #expect(lines[0] == "=E3=81=93=E3=82=93=E3=81=AB=E3=81=A1=E3=81=AF =3D hello")
        #expect(lines[1] == "=2Eleading dot")
        #expect(encoded.contains("=20\r\nend"))
        #expect(encoded.allSatisfy { $0.isASCII })
    }

    @Test(arguments: ["Hi\r\nBcc: x@example.com", "Hi\nthere"])
    func refusesLineBreaksInHeaders(subject: String) {
        #expect(throws: MailTransportError.self) { try render(subject: subject, body: "b") }
    }
}
