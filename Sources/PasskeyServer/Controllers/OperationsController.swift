internal import Foundation
internal import PasskeyApplication
internal import PasskeyHTTP

/// `/healthz`, `/readyz`, `/metrics` and the OpenAPI description (`/openapi.json`, `.yaml`).
struct OperationsController: Sendable {
    let maintenance: any MaintenanceRepository
    /// (v3) While the server drains before it stops, `/readyz` answers 503 whatever the database says.
    let drain: DrainState
    let metrics: Metrics
    /// The OpenAPI document as kept in the repository (`openapi.json`); nil when not found.
    let openAPI: [UInt8]?
    /// `METRICS_TOKEN` (open when unset).
    let metricsToken: ConfiguredTokenCheck
    /// The password-hashing queue, shown as gauges in `/metrics`.
    var passwordHashing: (@Sendable () -> PasswordHashingLoad)?
    /// (v3) The accounts by stage, recomputed at most once a minute (`passkey_accounts`).
    var accountStages: AccountStagesGauge?

    func register(in routes: inout Routes) {
        routes.anyone(.get, "/healthz", health)
        routes.anyone(.get, "/readyz", ready)
        routes.bearerToken(.get, "/metrics", check: metricsToken, metrics(_:context:))
        routes.anyone(.get, "/openapi.json", openAPIJSON)
        routes.anyone(.get, "/openapi.yaml", openAPIYAML)
    }

    @Sendable func health(_ request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: Array(#"{"status":"ok"}"#.utf8))
    }

    @Sendable func ready(_ request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        if drain.isDraining {
            return Problem(status: 503, code: .serviceUnavailable, detail: "The server is shutting down.").response
        }
        if await maintenance.isReady() {
            return HTTPResponse(status: 200, contentType: "application/json", body: Array(#"{"status":"ready"}"#.utf8))
        }
        return Problem(
            status: 503, code: .serviceUnavailable,
            detail: "The database is unreachable or its schema is not current."
        ).response
    }

    @Sendable func metrics(_ request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        var text = metrics.render()
        if let load = passwordHashing?() {
            text += "# HELP passkey_password_hash_queue Password hashing: jobs running and waiting.\n"
            text += "# TYPE passkey_password_hash_queue gauge\n"
            text += "passkey_password_hash_queue{state=\"running\"} \(load.running)\n"
            text += "passkey_password_hash_queue{state=\"waiting\"} \(load.waiting)\n"
            text += "# HELP passkey_password_hash_refused_total Password hashing refused because the queue was full.\n"
            text += "# TYPE passkey_password_hash_refused_total counter\n"
            text += "passkey_password_hash_refused_total \(load.refused)\n"
        }
        let reading = await accountStages?.current()
        if let failure = reading?.failure {
            // The last figures (if any) are shown; why they could not be refreshed is the operator's.
            context.logger.warning([
                .event: "account_stages", .outcome: "failed", .cause: FailureCause(failure).logText,
            ])
        }
        if let stages = reading?.stages {
            text += "# HELP passkey_accounts Accounts by migration stage (recomputed at most once a minute).\n"
            text += "# TYPE passkey_accounts gauge\n"
            text += "passkey_accounts{stage=\"password_only\"} \(stages.passwordOnly)\n"
            text += "passkey_accounts{stage=\"password_and_passkey\"} \(stages.passwordAndPasskey)\n"
            text += "passkey_accounts{stage=\"passkey_only\"} \(stages.passkeyOnly)\n"
        }
        return HTTPResponse(
            status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
    }

    @Sendable func openAPIJSON(_ request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        guard let openAPI else { return Problem.notFound.response }
        return HTTPResponse(status: 200, contentType: "application/json", body: openAPI)
    }

    /// JSON is a subset of YAML 1.2, so the JSON document is served as YAML too.
    @Sendable func openAPIYAML(_ request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        guard let openAPI else { return Problem.notFound.response }
        return HTTPResponse(status: 200, contentType: "application/yaml", body: openAPI)
    }
}
