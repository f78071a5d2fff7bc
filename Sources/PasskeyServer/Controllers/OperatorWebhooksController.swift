internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// (v4) `/v1/operator/webhooks` and `/v1/operator/webhooks/{webhookID}` (spec v4, "Webhooks"):
/// register, list and remove endpoints, and rotate an endpoint's secret, behind `OPERATOR_TOKEN`
/// (the `admin` of the support desk; registered only while the token is set).
struct OperatorWebhooksController: Sendable {
    let registration: WebhookRegistrationUseCase
    let list: WebhookListUseCase
    let removal: WebhookRemovalUseCase
    let rotation: WebhookSecretRotationUseCase
    let token: ConfiguredTokenCheck

    func register(in routes: inout Routes) {
        routes.bearerToken(.post, "/v1/operator/webhooks", check: token, add)
        routes.bearerToken(.get, "/v1/operator/webhooks", check: token, webhooks)
        routes.bearerToken(.delete, "/v1/operator/webhooks/{webhookID}", check: token, remove)
        routes.bearerToken(.post, "/v1/operator/webhooks/{webhookID}/secret", check: token, rotateSecret)
    }

    @Sendable func add(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let body = try request.decode(WebhookRegistrationRequestBody.self)
        let (webhook, secret) = try await context.execute { () throws(WebhookManagementError) in
            try await registration.execute(url: body.url, events: body.events, description: body.description)
        }
        context.logger.info([.event: "webhook", .outcome: "added", .webhookID: webhook.id.description])
        return try .json(201, WebhookResponseBody(webhook, secret: secret))
    }

    @Sendable func webhooks(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let webhooks = try await context.execute { () throws(WebhookManagementError) in try await list.execute() }
        return try .json(200, WebhookListResponseBody(webhooks: webhooks.map { WebhookResponseBody($0) }))
    }

    /// A malformed ID names no endpoint: 404.
    @Sendable func remove(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("webhookID", as: WebhookID.self)
        try await context.execute { () throws(WebhookManagementError) in try await removal.execute(id) }
        context.logger.info([.event: "webhook", .outcome: "removed", .webhookID: id.description])
        return .noContent
    }

    @Sendable func rotateSecret(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("webhookID", as: WebhookID.self)
        let secret = try await context.execute { () throws(WebhookManagementError) in try await rotation.execute(id) }
        context.logger.info([.event: "webhook", .outcome: "secret_rotated", .webhookID: id.description])
        return try .json(201, WebhookSecretResponseBody(secret: secret.text))
    }
}
