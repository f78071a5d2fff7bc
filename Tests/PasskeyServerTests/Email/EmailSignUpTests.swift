import Foundation
import PasskeyDatabaseTestSupport
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

/// Spec v3 "When codes are sent": sign-up mails a verification code in its own transaction, in
/// the language its `Accept-Language` preferred; imports mail nothing.
@Suite struct EmailSignUpTests {
    @Test func aPasswordSignUpMailsAVerificationCodeInItsLanguage() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let email = "ja-\(UUID().uuidString.prefix(8))@example.com"
            let created = try await client.send(
                "POST", "/v1/accounts",
                json: ["email": email, "displayName": "Hanako", "password": "correct horse battery"],
                headers: ["Accept-Language": "en;q=0.5, ja-JP"])
            #expect(created.status == 201)
            #expect(
                try await MailedCode.count(
                    "SELECT count(*) FROM account_emails WHERE normalized_email = \(email.lowercased()) AND language = 'ja'",
                    in: database) == 1)
            let code = try await MailedCode.latest(to: email, in: database)
            let session = try await client.send(
                "POST", "/v1/sessions", json: ["email": email, "password": "correct horse battery"])
            let token = try #require(session.string("accessToken"))
            let confirmed = try await client.send(
                "POST", "/v1/account/email/verification/confirm", json: ["code": code], token: token)
            #expect(confirmed.status == 200)
            #expect(confirmed.json["emailVerified"] as? Bool == true)

            let (_, english) = try await client.passwordUser()
            #expect(
                try await MailedCode.count(
                    "SELECT count(*) FROM account_emails WHERE normalized_email = \(english.lowercased()) AND language = 'en'",
                    in: database) == 1)
        }
    }

    @Test func aPasskeySignUpMailsAVerificationCode() async throws {
        try await withServer(environment: try await MailEnvironment.on()) { server, database in
            let client = server.client
            let email = "passkey-\(UUID().uuidString.prefix(8))@example.com"
            let options = try await client.send(
                "POST", "/v1/passkey-accounts/registrations", json: ["email": email, "displayName": "Kenji"])
            try #require(options.status == 200, "\(options.text)")
            var passkey = try TestPasskey()
            var body = try passkey.registrationBody(options: options.json)
            body["email"] = email
            body["displayName"] = "Kenji"
            let finished = try await client.send("POST", "/v1/passkey-accounts/registrations/finish", json: body)
            try #require(finished.status == 201, "\(finished.text)")
            _ = try await MailedCode.latest(to: email, in: database)
        }
    }

    @Test func withMailOffASignUpMailsNothing() async throws {
        try await withServer { server, database in
            let (_, email) = try await server.client.passwordUser()
            #expect(try await MailedCode.mails(to: email, in: database).isEmpty)
        }
    }

    @Test func anImportTakesEmailVerifiedFromItsLineAndMailsNothing() async throws {
        try await withTestDatabase { database, _ in
            let bcrypt = "$2b$04$cSLtjkxpAZcwPsDtveNc2.jTllJfJ1L8bKg0XTrl2vQFifoB8oAM6"
            let lines = """
                {"email": "proven@example.com", "displayName": "Proven", "passwordHash": "\(bcrypt)", "emailVerified": true}
                {"email": "unproven@example.com", "displayName": "Unproven", "passwordHash": "\(bcrypt)"}
                """
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "import-\(UUID().uuidString).jsonl")
            try lines.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let env = ["DATABASE_URL": database.conninfo, "MAIL_URL": "file:///tmp/unused"]
            #expect(await ImportPasswordsCommand.run(arguments: [file.path], environment: env) == 0)
            #expect(
                try await MailedCode.count(
                    "SELECT count(*) FROM account_emails WHERE verified_at IS NOT NULL", in: database) == 1)
            #expect(
                try await MailedCode.count(
                    "SELECT count(*) FROM account_emails WHERE normalized_email = 'proven@example.com' AND verified_at IS NOT NULL",
                    in: database) == 1)
            #expect(try await MailedCode.count("SELECT count(*) FROM mail_outbox", in: database) == 0)
        }
    }
}
