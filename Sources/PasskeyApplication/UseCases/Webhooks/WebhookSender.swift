package import Foundation
package import PasskeyDomain

/// The background webhook sender (spec v4, "Webhooks", Delivery): claims due deliveries under a
/// lease, sends each outside any transaction and settles it: delivered (2xx), retried with
/// backoff, or abandoned after `maxAttempts`. The server's loop (`WebhookDeliveryLoop`) keeps
/// several sends in flight, each claimed delivery one of them; the repository's claim keeps the
/// order per account and endpoint, and `FOR UPDATE SKIP LOCKED` with the lease gives each
/// delivery to one sender at a time across the fleet.
package struct WebhookSender: Sendable {
    let deliveries: any WebhookDeliveryRepository
    let transport: any WebhookTransport
    let format: any WebhookMessageFormat
    let sealer: any SecretSealer
    let clock: any WallClock
    let random: any RandomGenerator
    let maxAttempts: Int
    let lease: TimeInterval
    let backoff: WebhookRetryBackoff

    /// `lease` must outlast an attempt (the transport's timeout) with room to settle it.
    package init(
        deliveries: any WebhookDeliveryRepository, transport: any WebhookTransport, format: any WebhookMessageFormat,
        sealer: any SecretSealer, clock: any WallClock, random: any RandomGenerator, maxAttempts: Int,
        lease: TimeInterval, backoff: WebhookRetryBackoff = WebhookRetryBackoff()
    ) {
        self.deliveries = deliveries
        self.transport = transport
        self.format = format
        self.sealer = sealer
        self.clock = clock
        self.random = random
        self.maxAttempts = max(1, maxAttempts)
        self.lease = max(1, lease)
        self.backoff = backoff
    }

    /// Claims at most `limit` due deliveries, at most `perEndpoint` to one endpoint, none to the
    /// endpoints in `excluding` (those already busy in this instance).
    package func claim(limit: Int, perEndpoint: Int, excluding: Set<WebhookID> = [])
        async throws(RepositoryError) -> [ClaimedWebhookDelivery]
    {
        try await deliveries.claimDue(
            limit: limit, perEndpoint: max(1, perEndpoint), lease: lease, excluding: excluding)
    }

    /// One attempt of a claimed delivery, and its settlement.
    package func settle(_ delivery: ClaimedWebhookDelivery) async throws(RepositoryError) -> WebhookDeliveryOutcome {
        let attempts = delivery.attempts + 1
        let result: WebhookPostOutcome
        do throws(WebhookFormatError) {
            let secrets = delivery.sealedSecrets.compactMap { sealed in
                sealer.open(sealed, context: delivery.key.webhookID.description).flatMap(WebhookSecret.init(bytes:))
            }
            guard !secrets.isEmpty else {
                throw WebhookFormatError(cause: "the endpoint's secret does not open with DATA_ENCRYPTION_KEY")
            }
            let timestamp = Int(clock.now.timeIntervalSince1970.rounded(.down))
            let message = try format.message(for: delivery.event, secrets: secrets, timestamp: timestamp)
            result = await transport.post(message, to: delivery.url)
        } catch {
            result = .failed(cause: error.cause)
        }
        switch result {
        case .delivered(let status):
            try await deliveries.markDelivered(delivery.key)
            return .delivered(delivery.key, attempts: attempts, status: status)
        case .failed(let cause):
            if attempts >= maxAttempts {
                try await deliveries.abandon(delivery.key, attempts: attempts, lastError: cause)
                return .abandoned(delivery.key, attempts: attempts, cause: cause)
            }
            let delay = backoff.delay(afterAttempts: attempts, unit: unitInterval())
            try await deliveries.reschedule(
                delivery.key, attempts: attempts, lastError: cause, nextAttemptAt: clock.now.addingTimeInterval(delay))
            return .retried(delivery.key, attempts: attempts, cause: cause, delay: delay)
        }
    }

    /// A uniform value in [0, 1] from the random generator.
    private func unitInterval() -> Double {
        let value = random.bytes(count: 4).reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        return Double(value) / Double(UInt32.max)
    }
}

/// What one attempt of a delivery came to.
package enum WebhookDeliveryOutcome: Hashable, Sendable {
    case delivered(WebhookDeliveryKey, attempts: Int, status: Int)
    /// Tried again after `delay` seconds.
    case retried(WebhookDeliveryKey, attempts: Int, cause: String, delay: TimeInterval)
    /// `WEBHOOK_MAX_ATTEMPTS` reached.
    case abandoned(WebhookDeliveryKey, attempts: Int, cause: String)
}
