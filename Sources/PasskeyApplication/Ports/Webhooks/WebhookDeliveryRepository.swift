package import Foundation
package import PasskeyDomain

/// (v4) The background sender's view of `webhook_deliveries` (spec v4, "Webhooks", Delivery).
/// Deliveries are written by the statement that writes their event; this port claims, settles
/// and watches them.
package protocol WebhookDeliveryRepository: Sendable {
    /// Claims at most `limit` due deliveries (pending, lease free or expired, endpoint not removed,
    /// `excluding` none of them) with `FOR UPDATE SKIP LOCKED`, leases them until now + `lease` and
    /// commits. A delivery is due only when no earlier delivery of the same account to the same
    /// endpoint is pending (order per account) and its event's transaction is older than every
    /// one still running (no earlier event can still appear); at most `perEndpoint` go to one
    /// endpoint per claim. A `limit` below 1 claims nothing.
    func claimDue(limit: Int, perEndpoint: Int, lease: TimeInterval, excluding: Set<WebhookID>)
        async throws(RepositoryError) -> [ClaimedWebhookDelivery]

    /// A 2xx answer: the delivery is deleted and the endpoint's `lastDeliveredAt` set.
    func markDelivered(_ key: WebhookDeliveryKey) async throws(RepositoryError)

    /// A failed attempt: `attempts` and `lastError` recorded, tried again at `nextAttemptAt`.
    func reschedule(_ key: WebhookDeliveryKey, attempts: Int, lastError: String, nextAttemptAt: Date)
        async throws(RepositoryError)

    /// Given up after `WEBHOOK_MAX_ATTEMPTS`: kept as abandoned (counted) until the retention
    /// sweep; the event stays in the events API for replay.
    func abandon(_ key: WebhookDeliveryKey, attempts: Int, lastError: String) async throws(RepositoryError)

    /// The age of the oldest pending delivery to an endpoint not removed (nil when none).
    func oldestPendingAge() async throws(RepositoryError) -> TimeInterval?
}

/// One delivery: an endpoint and an event's place in the log.
package struct WebhookDeliveryKey: Hashable, Sendable {
    package let webhookID: WebhookID
    package let event: EventLogCursor

    package init(webhookID: WebhookID, event: EventLogCursor) {
        self.webhookID = webhookID
        self.event = event
    }
}

/// A delivery the sender holds a lease on, with what sending it needs.
package struct ClaimedWebhookDelivery: Hashable, Sendable {
    package let key: WebhookDeliveryKey
    package let url: WebhookURL
    /// The sealed secrets that sign it: the current one, then the previous one while it is live.
    package let sealedSecrets: [[UInt8]]
    package let event: LoggedEvent
    /// Attempts before this one.
    package let attempts: Int

    package init(
        key: WebhookDeliveryKey, url: WebhookURL, sealedSecrets: [[UInt8]], event: LoggedEvent, attempts: Int
    ) {
        self.key = key
        self.url = url
        self.sealedSecrets = sealedSecrets
        self.event = event
        self.attempts = attempts
    }
}
