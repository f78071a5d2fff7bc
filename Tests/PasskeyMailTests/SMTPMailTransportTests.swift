import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyMail
import Testing

/// libcurl against a real SMTP server (Debian's aiosmtpd).
@Suite struct SMTPMailTransportTests {
    @Test func aMessageArrivesIntact() async throws {
        try await withSMTPServer { server in
            let id = UUID()
            let body =
                "Hello,\n\nYour code:\n123456\n\n.a line starting with a dot\n" + String(repeating: "long ", count: 40)
            try await MailFixtures.smtp(server).send(
                MailMessage(id: id, recipient: EmailAddress("ann@example.org")!, subject: "Your code", body: body))
            let mail = try await server.waitForMessage(to: "ann@example.org")
            #expect(mail.subject == "Your code")
            #expect(mail.body == body + "\n")
            #expect(mail.header("From") == "no-reply@example.com")
            #expect(mail.header("Message-ID") == "<\(id.uuidString.lowercased())@example.com>")
            #expect(mail.header("Date")?.hasSuffix("+0000") == true)
            #expect(mail.body.contains("\n123456\n"))
        }
    }

    @Test func aJapaneseSubjectIsDecodedIntact() async throws {
        try await withSMTPServer { server in
            let subject = "【パスキーサーバー】確認コードのお知らせ：メールアドレスの確認をお願いします"
            let body = "確認コード:\n654321\n"
            try await MailFixtures.smtp(server).send(
                MailMessage(id: UUID(), recipient: EmailAddress("hana@example.jp")!, subject: subject, body: body))
            let mail = try await server.waitForMessage(to: "hana@example.jp")
            #expect(mail.subject == subject)
            #expect(mail.body == body + "\n")
        }
    }

    @Test func aStoppedServerIsATransientFailure() async throws {
        let server = try await TestSMTPServer.start()
        await server.destroy()
        let error = await #expect(throws: MailTransportError.self) {
            try await MailFixtures.smtp(server).send(
                MailMessage(id: UUID(), recipient: EmailAddress("ann@example.org")!, subject: "s", body: "b"))
        }
        #expect(error?.kind == .transient)
    }

    @Test func credentialsNeverReachTheErrorOrTheDestination() async throws {
        let server = try await TestSMTPServer.start()
        await server.destroy()
        let transport = MailFixtures.smtp(server, username: "user", password: "s3cret-pa55")
        let error = await #expect(throws: MailTransportError.self) {
            try await transport.send(
                MailMessage(id: UUID(), recipient: EmailAddress("ann@example.org")!, subject: "s", body: "b"))
        }
        let text = "\(String(describing: error)) \(error?.cause ?? "")"
        #expect(!text.contains("s3cret-pa55"))
        #expect(!text.contains("user"))
        #expect(transport.destination == "smtp://127.0.0.1:\(server.port)")
    }
}

/// `file:///folder`.
@Suite struct FileMailTransportTests {
    @Test func writesAReadableEmlAtomically() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)/inner")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let transport = FileMailTransport(folder: folder, from: MailFixtures.from)
        let id = UUID()
        try await transport.send(
            MailMessage(id: id, recipient: EmailAddress("ann@example.org")!, subject: "確認コード", body: "Code:\n123456\n"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names == ["\(id.uuidString.lowercased()).eml"])
        let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(names[0]).path))
        // The code is readable as it is in the file (quoted-printable leaves ASCII alone).
        #expect(String(decoding: data, as: UTF8.self).contains("\r\n123456\r\n"))
        let mail = ReceivedMail(raw: Array(data))
        #expect(mail.subject == "確認コード")
        #expect(mail.body == "Code:\n123456\n\n")
        #expect(transport.destination == folder.path)
    }
}

/// The test relay itself: `restart()` binds its port again after `stop()`.
@Suite struct TestSMTPServerTests {
    /// A port from the kernel's ephemeral range can become the local port of another test's
    /// outgoing connection while the relay is stopped; its restart then failed with EADDRINUSE
    /// (seen once in a run of the mail tests). Its port is below that range now (this failed
    /// before: binding port 0 gave one inside it), and a stopped relay listens again on it. The
    /// range is read here on its own, not through the server's reading of it.
    @Test func itsPortIsBelowTheEphemeralRangeAndARestartListensAgain() async throws {
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeralLow = try #require(range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        try await withSMTPServer { server in
            #expect(server.port < ephemeralLow)
            await server.stop()
            try await server.restart()
            try await MailFixtures.smtp(server).send(
                MailMessage(id: UUID(), recipient: EmailAddress("back@example.org")!, subject: "s", body: "b"))
            _ = try await server.waitForMessage(to: "back@example.org")
        }
    }
}
