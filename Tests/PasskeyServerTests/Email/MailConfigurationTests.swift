import Foundation
import PasskeyTestSupport
import Testing

@testable import PasskeyServer

@Suite struct MailConfigurationTests {
    private let base = ["DATABASE_URL": "host=/tmp port=5432 user=postgres dbname=postgres"]

    private func load(_ extra: [String: String]) throws -> ServerConfiguration {
        try ServerConfiguration.load(from: base.merging(extra) { $1 })
    }

    @Test func mailIsOffWithoutMailURL() throws {
        let configuration = try load([:])
        #expect(configuration.mail == nil)
        #expect(!configuration.policy.mail.enabled)
    }

    @Test func validURLsAndDefaults() throws {
        let smtp = try #require(
            try load(["MAIL_URL": "smtp://relay.example.com", "PASSKEY_RP_ID": "example.com"]).mail)
        #expect(
            smtp.transport
                == .smtp(host: "relay.example.com", port: 587, security: .startTLS, username: nil, password: nil))
        #expect(smtp.from.value == "no-reply@example.com")
        #expect(smtp.maxAttempts == 8)
        let withUser = try #require(try load(["MAIL_URL": "smtp://me%40x.com:p%3Ass@relay.example.com:2525"]).mail)
        #expect(
            withUser.transport
                == .smtp(
                    host: "relay.example.com", port: 2525, security: .startTLS, username: "me@x.com", password: "p:ss"))
        #expect(withUser.destination == "smtp://relay.example.com:2525")
        let loopback = try #require(try load(["MAIL_URL": "smtp://127.0.0.5:1025"]).mail)
        #expect(
            loopback.transport
                == .smtp(host: "127.0.0.5", port: 1025, security: .plainLoopback, username: nil, password: nil))
        let ipv6 = try #require(try load(["MAIL_URL": "smtp://[::1]:25"]).mail)
        #expect(ipv6.transport == .smtp(host: "::1", port: 25, security: .plainLoopback, username: nil, password: nil))
        let smtps = try #require(
            try load(["MAIL_URL": "smtps://localhost.example.com", "MAIL_MAX_ATTEMPTS": "100"]).mail)
        #expect(
            smtps.transport
                == .smtp(host: "localhost.example.com", port: 465, security: .implicitTLS, username: nil, password: nil)
        )
        #expect(smtps.maxAttempts == 100)
        let file = try #require(try load(["MAIL_URL": "file:///var/tmp/mail", "MAIL_FROM": "a@b.example"]).mail)
        #expect(file.transport == .file(folder: "/var/tmp/mail"))
        #expect(file.from.value == "a@b.example")
        #expect(try load(["MAIL_URL": "file:///tmp/m"]).policy.mail.enabled)
    }

    @Test(arguments: [
        ("MAIL_URL", "http://relay.example.com"), ("MAIL_URL", "relay.example.com"), ("MAIL_URL", "smtp://"),
        ("MAIL_URL", "smtp://relay.example.com:0"), ("MAIL_URL", "smtp://relay.example.com:70000"),
        ("MAIL_URL", "smtp://relay.example.com:"), ("MAIL_URL", "smtp://relay.example.com/path"),
        ("MAIL_URL", "file://host/folder"), ("MAIL_URL", "file:relative"), ("MAIL_URL", "file:///"),
        ("MAIL_URL", "smtp://:topsecret@relay.example.com"), ("MAIL_URL", "smtp://u:topsecret@relay.example.com:99999"),
        ("MAIL_FROM", "not an address"), ("MAIL_FROM", "a@b.example>\r\nBcc: x"), ("MAIL_FROM", "<a@b.example>"),
        ("MAIL_MAX_ATTEMPTS", "0"), ("MAIL_MAX_ATTEMPTS", "101"), ("MAIL_MAX_ATTEMPTS", "many"),
    ])
    func invalidValuesStopWithOneLineNamingTheVariable(variable: String, value: String) {
        var env = ["MAIL_URL": "smtp://127.0.0.1:25"]
        env[variable] = value
        do {
            _ = try load(env)
            Issue.record("\(variable)=\(value) was accepted")
        } catch {
            let line = "\(error)"
            #expect(line.hasPrefix("invalid configuration: \(variable): "))
            #expect(!line.contains("\n"))
            #expect(!line.contains("topsecret"))
        }
    }
}
