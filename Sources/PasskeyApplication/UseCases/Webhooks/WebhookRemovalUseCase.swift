package import PasskeyDomain

/// `DELETE /v1/operator/webhooks/{webhookID}` and `passkey-server webhooks remove ID`: nothing
/// more is sent to the endpoint (its pending deliveries are deleted; one in flight may still
/// arrive). Its events stay in the events API.
package struct WebhookRemovalUseCase: Sendable {
    let webhooks: any WebhookRepository

    package init(webhooks: any WebhookRepository) { self.webhooks = webhooks }

    package func execute(_ id: WebhookID) async throws(WebhookManagementError) {
        let webhooks = webhooks
        let removed = try await WebhookManagementError.catching { () async throws(RepositoryError) in
            try await webhooks.remove(id)
        }
        guard removed else { throw .unknownWebhook }
    }
}
