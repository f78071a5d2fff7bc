package import PasskeyDomain

/// `GET /v1/operator/webhooks` and `passkey-server webhooks list`: every endpoint, oldest first,
/// with its pending and abandoned deliveries (never a secret).
package struct WebhookListUseCase: Sendable {
    let webhooks: any WebhookRepository

    package init(webhooks: any WebhookRepository) { self.webhooks = webhooks }

    package func execute() async throws(WebhookManagementError) -> [Webhook] {
        let webhooks = webhooks
        return try await WebhookManagementError.catching { () async throws(RepositoryError) in
            try await webhooks.list()
        }
    }
}
