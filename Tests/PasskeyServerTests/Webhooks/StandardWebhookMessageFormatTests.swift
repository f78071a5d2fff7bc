import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import PasskeyWire
import Testing

@testable import PasskeyServer

/// The request of one attempt: the events API's payload as the body, the Standard Webhooks
/// headers, and a signature per live secret that the reference library accepts.
@Suite struct StandardWebhookMessageFormatTests {
    static let python = TestWebhookReceiver.python
    static let script = PackagePaths.root.appendingPathComponent("scripts/verify-webhook-signature.py").path

    static func secret() -> WebhookSecret { WebhookSecret(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })! }

    /// Whether `standardwebhooks` accepts the message under `secret`.
    static func accepts(_ message: WebhookMessage, _ secret: WebhookSecret) async throws -> Bool {
        let headers = Dictionary(uniqueKeysWithValues: message.headers.map { ($0.name, $0.value) })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        try Data(message.body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try await ChildProcess.run([
                python, script, secret.text, try #require(headers["webhook-id"]),
                try #require(headers["webhook-timestamp"]), try #require(headers["webhook-signature"]), file.path,
            ])
            return true
        } catch is ChildProcess.Failure {
            return false
        }
    }

    @Test func theBodyIsThePayloadAndEveryLiveSecretSigns() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "run scripts/deps.sh --with-test-tools")
        let event = LoggedEvent(
            id: AccountEventID(), accountID: AccountID(), kind: "stage.changed", occurredAt: Date(),
            clientAddress: "192.0.2.1", userAgent: "Agent/1", method: nil, credentialID: nil, sessionID: SessionID(),
            actor: nil, stageChange: (.passwordAndPasskey, .passkeyOnly),
            cursor: EventLogCursor(transaction: 1, position: 1))
        let (current, previous, other) = (Self.secret(), Self.secret(), Self.secret())
        let now = Int(Date().timeIntervalSince1970)
        let message = try StandardWebhookMessageFormat().message(
            for: event, secrets: [current, previous], timestamp: now)
        #expect(message.body == Array(try WireJSON.encode(EventPayloadBody(event))))
        let headers = Dictionary(uniqueKeysWithValues: message.headers.map { ($0.name, $0.value) })
        #expect(headers["webhook-id"] == event.id.description)
        #expect(headers["webhook-timestamp"] == String(now))
        #expect(headers["Content-Type"] == "application/json")
        #expect(headers["webhook-signature"]?.split(separator: " ").count == 2)
        #expect(try await Self.accepts(message, current))
        #expect(try await Self.accepts(message, previous))
        #expect(!(try await Self.accepts(message, other)))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(message.body)) as? [String: Any])
        let data = try #require(json["data"] as? [String: Any])
        #expect(json["type"] as? String == "stage.changed")
        #expect(data["from"] as? String == "password-and-passkey" && data["to"] as? String == "passkey-only")
    }
}
