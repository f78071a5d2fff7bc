import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport

/// The webhook use cases over an in-memory repository, a labelled sealer and a fixed clock.
struct WebhookFixture {
    let repository = InMemoryWebhookRepository()
    let sealer = LabelledSecretSealer()
    let random = SequentialRandomGenerator()
    let clock = FixedClock()

    var registration: WebhookRegistrationUseCase {
        WebhookRegistrationUseCase(webhooks: repository, sealer: sealer, random: random, clock: clock)
    }
    var rotation: WebhookSecretRotationUseCase {
        WebhookSecretRotationUseCase(webhooks: repository, sealer: sealer, random: random, clock: clock)
    }
    var list: WebhookListUseCase { WebhookListUseCase(webhooks: repository) }
    var removal: WebhookRemovalUseCase { WebhookRemovalUseCase(webhooks: repository) }

    /// Registers `https://hooks.example.com/<n>` for every kind.
    @discardableResult
    func register(_ n: Int = 1) async throws -> (webhook: Webhook, secret: WebhookSecret) {
        try await registration.execute(url: "https://hooks.example.com/\(n)", events: nil, description: nil)
    }
}
