public import Foundation

// (v4) "Webhooks": the operator endpoints' bodies.

/// `POST /v1/operator/webhooks` body: `{url, events?: [kind], description?}`.
public struct WebhookRegistrationRequestBody: Codable, Sendable, Hashable {
    public let url: String
    public let events: [String]?
    public let description: String?

    public init(url: String, events: [String]? = nil, description: String? = nil) {
        self.url = url
        self.events = events
        self.description = description
    }
}

/// Webhook = `{webhookID, url, events, description, createdAt, pending, abandoned,
/// lastDeliveredAt}` (`lastDeliveredAt` present, null until a delivery succeeded); with
/// `secret` only in the answer to the registration.
public struct WebhookResponseBody: Codable, Sendable, Hashable {
    public let webhookID: String
    public let url: String
    /// Empty: every kind.
    public let events: [String]
    public let description: String
    public let createdAt: Date
    public let pending: Int
    public let abandoned: Int
    public let lastDeliveredAt: Date?
    /// `whsec_…`: only in the 201 of `POST /v1/operator/webhooks`.
    public let secret: String?

    public init(
        webhookID: String, url: String, events: [String], description: String, createdAt: Date, pending: Int,
        abandoned: Int, lastDeliveredAt: Date?, secret: String? = nil
    ) {
        self.webhookID = webhookID
        self.url = url
        self.events = events
        self.description = description
        self.createdAt = createdAt
        self.pending = pending
        self.abandoned = abandoned
        self.lastDeliveredAt = lastDeliveredAt
        self.secret = secret
    }

    enum CodingKeys: String, CodingKey {
        case webhookID, url, events, description, createdAt, pending, abandoned, lastDeliveredAt, secret
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(webhookID, forKey: .webhookID)
        try container.encode(url, forKey: .url)
        try container.encode(events, forKey: .events)
        try container.encode(description, forKey: .description)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(pending, forKey: .pending)
        try container.encode(abandoned, forKey: .abandoned)
        try container.encode(lastDeliveredAt, forKey: .lastDeliveredAt)
        try container.encodeIfPresent(secret, forKey: .secret)
    }
}

/// `GET /v1/operator/webhooks` → 200 `{webhooks: [Webhook]}`, oldest first.
public struct WebhookListResponseBody: Codable, Sendable, Hashable {
    public let webhooks: [WebhookResponseBody]

    public init(webhooks: [WebhookResponseBody]) { self.webhooks = webhooks }
}

/// `POST /v1/operator/webhooks/{webhookID}/secret` → 201 `{secret}`.
public struct WebhookSecretResponseBody: Codable, Sendable, Hashable {
    public let secret: String

    public init(secret: String) { self.secret = secret }
}
