import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import PasskeyWebhooks
import Testing

/// The webhooks' HTTP transport against a real HTTP server (`TestWebhookReceiver`): a 2xx
/// delivers; any other status, a redirect (never followed), a refused connection or no answer
/// within the timeout fails with a cause that carries no header or body; a long answer is cut.
@Suite struct CurlWebhookTransportTests {
    static let message = WebhookMessage(
        headers: [
            WebhookHeader(name: "Content-Type", value: "application/json"),
            WebhookHeader(name: "webhook-id", value: "1b7c0e4e-8f5a-4c39-9a0e-0d4f3c2b1a00"),
            WebhookHeader(name: "webhook-timestamp", value: "1764849600"),
            WebhookHeader(name: "webhook-signature", value: "v1,c2lnbmF0dXJl"),
        ], body: Array(#"{"type":"sign-in"}"#.utf8))

    static func url(_ text: String) throws -> WebhookURL { try #require(WebhookURL(text)) }

    @Test func aTwoHundredAnswerDeliversTheBodyAndHeadersAsGiven() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        let outcome = await CurlWebhookTransport(timeoutSeconds: 5).post(
            Self.message, to: try Self.url(receiver.url("a", .ok)))
        #expect(outcome == .delivered(status: 204))
        let received = try #require(receiver.received(name: "a").first)
        #expect(received.body == #"{"type":"sign-in"}"#)
        #expect(received.id == "1b7c0e4e-8f5a-4c39-9a0e-0d4f3c2b1a00")
        #expect(received.timestamp == "1764849600")
        #expect(received.signature == "v1,c2lnbmF0dXJl")
        #expect(received.contentType == "application/json")
    }

    @Test func anyOtherStatusFailsWithTheStatusOnly() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        let transport = CurlWebhookTransport(timeoutSeconds: 5)
        #expect(
            await transport.post(Self.message, to: try Self.url(receiver.url("b", .status(500))))
                == .failed(cause: "HTTP 500"))
        #expect(
            await transport.post(Self.message, to: try Self.url(receiver.url("b", .status(410))))
                == .failed(cause: "HTTP 410"))
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        let outcome = await CurlWebhookTransport(timeoutSeconds: 5).post(
            Self.message, to: try Self.url(receiver.url("c", .redirect)))
        #expect(outcome == .failed(cause: "HTTP 302 (redirects are not followed)"))
        // The redirect's target (/c/ok) was never asked.
        #expect(receiver.received(name: "c").map(\.behaviour) == ["redirect"])
    }

    @Test func noAnswerWithinTheTimeoutFails() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        let started = ContinuousClock.now
        let outcome = await CurlWebhookTransport(timeoutSeconds: 1).post(
            Self.message, to: try Self.url(receiver.url("d", .hang)))
        guard case .failed(let cause) = outcome else {
            Issue.record("a hanging endpoint was delivered: \(outcome)")
            return
        }
        #expect(cause.lowercased().contains("timeout") || cause.lowercased().contains("timed out"))
        // Ended by the timeout, not by the receiver's 30 s.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func aRefusedConnectionFails() async throws {
        // A port nothing listens on: the receiver's, once it is gone.
        let receiver = try await TestWebhookReceiver.start()
        let url = try Self.url(receiver.url("e", .ok))
        await receiver.destroy()
        let outcome = await CurlWebhookTransport(timeoutSeconds: 2).post(Self.message, to: url)
        guard case .failed(let cause) = outcome else {
            Issue.record("a closed port was delivered: \(outcome)")
            return
        }
        #expect(!cause.contains("webhook-signature") && !cause.contains("c2lnbmF0dXJl"))
    }

    @Test func aLongAnswerIsCutAndStillCountsByItsStatus() async throws {
        let receiver = try await TestWebhookReceiver.start()
        defer { Task { await receiver.destroy() } }
        let outcome = await CurlWebhookTransport(timeoutSeconds: 5).post(
            Self.message, to: try Self.url(receiver.url("f", .big)))
        #expect(outcome == .delivered(status: 200))
    }
}
