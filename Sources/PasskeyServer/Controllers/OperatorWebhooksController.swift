internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// (v4) `/v1/operator/webhooks` and `/v1/operator/webhooks/{webhookID}` (spec v4, "Webhooks"):
/// register, list and remove endpoints, and rotate an endpoint's secret: operators of the `admin`
/// role only (the `operator` route kind; `OPERATOR_TOKEN` is an admin).
struct OperatorWebhooksController: Sendable {
    let registration: WebhookRegistrationUseCase
    let list: WebhookListUseCase
    let removal: WebhookRemovalUseCase
    let rotation: WebhookSecretRotationUseCase
    let authorization: OperatorAuthorizationUseCase

    func register(in routes: inout Routes) {
        let a = authorization
        routes.operator(.post, "/v1/operator/webhooks", role: .admin, authorization: a, add)
        routes.operator(.get, "/v1/operator/webhooks", role: .admin, authorization: a, webhooks)
        routes.operator(.delete, "/v1/operator/webhooks/{webhookID}", role: .admin, authorization: a, remove)
        routes.operator(.post, "/v1/operator/webhooks/{webhookID}/secret", role: .admin, authorization: a, rotateSecret)
    }

    @Sendable func add(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let body = try request.decode(WebhookRegistrationRequestBody.self)
        let (webhook, secret) = try await context.execute { () throws(WebhookManagementError) in
            try await registration.execute(url: body.url, events: body.events, description: body.description)
        }
        context.logger.info([
            .event: "webhook", .outcome: "added", .webhookID: webhook.id.description,
            .operatorName: context.operator.name.value,
        ])
        return try .json(201, WebhookResponseBody(webhook, secret: secret))
    }

    @Sendable func webhooks(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let webhooks = try await context.execute { () throws(WebhookManagementError) in try await list.execute() }
        return try .json(200, WebhookListResponseBody(webhooks: webhooks.map { WebhookResponseBody($0) }))
    }

    /// A malformed ID names no endpoint: 404.
    @Sendable func remove(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("webhookID", as: WebhookID.self)
        try await context.execute { () throws(WebhookManagementError) in try await removal.execute(id) }
        context.logger.info([
            .event: "webhook", .outcome: "removed", .webhookID: id.description,
            .operatorName: context.operator.name.value,
        ])
        return .noContent
    }

    @Sendable func rotateSecret(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("webhookID", as: WebhookID.self)
        let secret = try await context.execute { () throws(WebhookManagementError) in try await rotation.execute(id) }
        context.logger.info([
            .event: "webhook", .outcome: "secret_rotated", .webhookID: id.description,
            .operatorName: context.operator.name.value,
        ])
        return try .json(201, WebhookSecretResponseBody(secret: secret.text))
    }
}
