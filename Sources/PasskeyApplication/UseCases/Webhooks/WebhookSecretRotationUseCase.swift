package import Foundation
package import PasskeyDomain

/// `POST /v1/operator/webhooks/{webhookID}/secret`: a new secret, shown once; for the next 24
/// hours every delivery carries the signatures of both, so a receiver can switch at its pace.
package struct WebhookSecretRotationUseCase: Sendable {
    /// How long the replaced secret still signs.
    package static let overlap: TimeInterval = 24 * 3600

    let webhooks: any WebhookRepository
    let sealer: (any SecretSealer)?
    let random: any RandomGenerator
    let clock: any WallClock

    package init(
        webhooks: any WebhookRepository, sealer: (any SecretSealer)?, random: any RandomGenerator,
        clock: any WallClock
    ) {
        self.webhooks = webhooks
        self.sealer = sealer
        self.random = random
        self.clock = clock
    }

    package func execute(_ id: WebhookID) async throws(WebhookManagementError) -> WebhookSecret {
        guard let sealer else { throw .webhooksUnavailable }
        let minted = try MintedWebhookSecret(for: id, random: random, sealer: sealer)
        let until = clock.now.addingTimeInterval(Self.overlap)
        let webhooks = webhooks
        let replaced = try await WebhookManagementError.catching { () async throws(RepositoryError) in
            try await webhooks.replaceSecret(of: id, with: minted.sealed, previousUntil: until)
        }
        guard replaced else { throw .unknownWebhook }
        return minted.secret
    }
}
