import Foundation
import PasskeyCrypto
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The webhooks' `webhook-signature` header, judged by the Standard Webhooks reference library
/// (PyPI `standardwebhooks`, `Webhook.verify`): accepted with either live secret, refused for
/// another secret, body, ID or timestamp.
@Suite struct StandardWebhookSignatureTests {
    static let python = PackagePaths.root.appendingPathComponent(".tools/venv/bin/python").path
    static let script = PackagePaths.root.appendingPathComponent("scripts/verify-webhook-signature.py").path

    static func secret() -> WebhookSecret {
        WebhookSecret(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })!
    }

    /// Whether the library accepts `body` with these headers, under `secret`.
    static func accepts(_ secret: WebhookSecret, id: String, timestamp: Int, signature: String, body: [UInt8])
        async throws -> Bool
    {
        try #require(FileManager.default.isExecutableFile(atPath: python), "run scripts/deps.sh --with-test-tools")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-\(UUID().uuidString)")
        try Data(body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try await ChildProcess.run(
                [python, script, secret.text, id, String(timestamp), signature, file.path])
            return true
        } catch is ChildProcess.Failure {
            return false
        }
    }

    @Test func theReferenceLibraryAcceptsOursAndNothingElse() async throws {
        let secret = Self.secret()
        let id = "0f0304ba-2090-4cec-b761-145d2561625e"
        let now = Int(Date().timeIntervalSince1970)
        let body = Array(#"{"type":"sign-in","timestamp":"2026-12-04T12:00:00Z","data":{"kind":"sign-in"}}"#.utf8)
        let signature = try StandardWebhookSignature.header(id: id, timestamp: now, body: body, secrets: [secret])
        #expect(signature.hasPrefix("v1,"))
        #expect(try await Self.accepts(secret, id: id, timestamp: now, signature: signature, body: body))
        // Another secret, body, ID or timestamp: refused.
        #expect(!(try await Self.accepts(Self.secret(), id: id, timestamp: now, signature: signature, body: body)))
        #expect(!(try await Self.accepts(secret, id: id, timestamp: now, signature: signature, body: body + [32])))
        #expect(!(try await Self.accepts(secret, id: "other", timestamp: now, signature: signature, body: body)))
        #expect(!(try await Self.accepts(secret, id: id, timestamp: now + 1, signature: signature, body: body)))
    }

    @Test func whileASecretRotatesEitherOneVerifies() async throws {
        let old = Self.secret()
        let new = Self.secret()
        let now = Int(Date().timeIntervalSince1970)
        let body = Array("{}".utf8)
        let signature = try StandardWebhookSignature.header(
            id: "msg_1", timestamp: now, body: body, secrets: [new, old])
        #expect(signature.split(separator: " ").count == 2)
        #expect(try await Self.accepts(old, id: "msg_1", timestamp: now, signature: signature, body: body))
        #expect(try await Self.accepts(new, id: "msg_1", timestamp: now, signature: signature, body: body))
        #expect(!(try await Self.accepts(Self.secret(), id: "msg_1", timestamp: now, signature: signature, body: body)))
    }

    @Test func aSecretIsWhsecAndBase64OfThirtyTwoBytesAndNeverPrinted() throws {
        let secret = Self.secret()
        #expect(secret.text.hasPrefix("whsec_"))
        #expect(WebhookSecret(secret.text) == secret)
        #expect(!"\(secret)".contains(secret.text.dropFirst(6)))
        for bad in ["", "whsec_", "whsec_AAAA", "sk_" + secret.text.dropFirst(6), "whsec_!!!!"] {
            #expect(WebhookSecret(bad) == nil, "\(bad)")
        }
        #expect(WebhookSecret(bytes: Array(repeating: 1, count: 31)) == nil)
    }
}
