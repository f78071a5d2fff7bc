internal import Foundation
internal import PasskeyApplication
internal import PasskeyCrypto
internal import PasskeyDomain
internal import PasskeyWire

/// (v4) The Standard Webhooks request of one attempt (spec v4, "Webhooks", Headers): the body is
/// the event's payload exactly as `GET /v1/operator/events` serves it (`EventPayloadBody`); the
/// headers are `webhook-id` (the event's ID: the same on every attempt), `webhook-timestamp`
/// (this attempt), `webhook-signature` (one `v1,…` per live secret) and the content type.
struct StandardWebhookMessageFormat: WebhookMessageFormat {
    func message(for event: LoggedEvent, secrets: [WebhookSecret], timestamp: Int) throws(WebhookFormatError)
        -> WebhookMessage
    {
        let id = event.id.description
        let body: [UInt8]
        let signature: String
        do {
            body = Array(try WireJSON.encode(EventPayloadBody(event)))
            signature = try StandardWebhookSignature.header(id: id, timestamp: timestamp, body: body, secrets: secrets)
        } catch {
            throw WebhookFormatError(cause: "the payload could not be encoded or signed: \(error)")
        }
        return WebhookMessage(
            headers: [
                WebhookHeader(name: "Content-Type", value: "application/json"),
                WebhookHeader(name: "webhook-id", value: id),
                WebhookHeader(name: "webhook-timestamp", value: String(timestamp)),
                WebhookHeader(name: "webhook-signature", value: signature),
                WebhookHeader(name: "User-Agent", value: "passkey-server webhooks"),
            ], body: body)
    }
}
