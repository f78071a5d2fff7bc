package import PasskeyDomain

/// `POST /v1/operator/webhooks` and `passkey-server webhooks add` (spec v4, "Webhooks"): a new
/// endpoint with a new secret (`whsec_` + 32 bytes from the CSPRNG), stored sealed with
/// `DATA_ENCRYPTION_KEY` and shown only in this answer.
package struct WebhookRegistrationUseCase: Sendable {
    let webhooks: any WebhookRepository
    /// Nil without `DATA_ENCRYPTION_KEY`: nothing can be registered.
    let sealer: (any SecretSealer)?
    let random: any RandomGenerator
    let clock: any WallClock

    /// Endpoints that may exist at once: each event is written once per endpoint.
    package static let maximumEndpoints = 100

    package init(
        webhooks: any WebhookRepository, sealer: (any SecretSealer)?, random: any RandomGenerator,
        clock: any WallClock
    ) {
        self.webhooks = webhooks
        self.sealer = sealer
        self.random = random
        self.clock = clock
    }

    /// `events` nil or empty: every kind.
    package func execute(url: String, events: [String]?, description: String?) async throws(WebhookManagementError)
        -> (webhook: Webhook, secret: WebhookSecret)
    {
        guard let url = WebhookURL(url) else {
            throw .invalidRequest(
                "url must be https://, or http:// to a loopback host, without a user or password, "
                    + "at most 2048 characters.")
        }
        let kinds = try Self.kinds(events ?? [])
        guard let description = WebhookDescription(description ?? "") else {
            throw .invalidRequest("description must be at most 200 printable characters.")
        }
        guard let sealer else { throw .webhooksUnavailable }
        let id = WebhookID(random.uuid())
        let minted = try MintedWebhookSecret(for: id, random: random, sealer: sealer)
        let webhook = Webhook(id: id, url: url, events: kinds, description: description, createdAt: clock.now)
        let webhooks = webhooks
        let added = try await WebhookManagementError.catching { () async throws(RepositoryError) in
            try await webhooks.add(webhook, sealedSecret: minted.sealed, limit: Self.maximumEndpoints)
        }
        guard added else {
            throw .invalidRequest("at most \(Self.maximumEndpoints) endpoints: remove one first.")
        }
        return (webhook, minted.secret)
    }

    /// The kinds, each known, without repeats, sorted.
    static func kinds(_ events: [String]) throws(WebhookManagementError) -> [String] {
        guard events.count <= 64, events.allSatisfy(WebhookEventKinds.all.contains) else {
            throw .invalidRequest("events must list event kinds only (docs/webhooks.md names them).")
        }
        return Set(events).sorted()
    }
}
