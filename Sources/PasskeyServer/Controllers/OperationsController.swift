internal import Foundation
internal import PasskeyApplication
internal import PasskeyHTTP
internal import PasskeyOpenSSL
internal import PasskeyPasswordHashing

/// Health, readiness, metrics, the well-known documents and the OpenAPI description.
struct OperationsController: Sendable {
    let maintenance: any MaintenanceRepository
    let metrics: Metrics
    let wellKnown: WellKnownDocuments
    /// The OpenAPI document as kept in the repository (`openapi.json`); nil when not found.
    let openAPI: [UInt8]?
    /// SHA-256 of `METRICS_TOKEN`; nil when `/metrics` is open.
    var metricsTokenDigest: [UInt8]?
    /// The password-hashing queue, shown as gauges in `/metrics`.
    var passwordHashing: (@Sendable () -> BlockingWorkPool.Metrics)?

    func register(in router: inout Router) {
        router.add("GET", "/healthz", health(_:))
        router.add("GET", "/readyz", ready(_:))
        router.add("GET", "/metrics", metrics(_:))
        router.add("GET", "/.well-known/apple-app-site-association", appleAppSiteAssociation(_:))
        router.add("GET", "/.well-known/assetlinks.json", assetLinks(_:))
        router.add("GET", "/.well-known/webauthn", webauthn(_:))
        router.add("GET", "/.well-known/passkey-endpoints", passkeyEndpoints(_:))
        router.add("GET", "/openapi.json", openAPIJSON(_:))
        router.add("GET", "/openapi.yaml", openAPIYAML(_:))
    }

    func health(_ context: RequestContext) async -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: Array(#"{"status":"ok"}"#.utf8))
    }

    func ready(_ context: RequestContext) async -> HTTPResponse {
        if await maintenance.isReady() {
            return HTTPResponse(status: 200, contentType: "application/json", body: Array(#"{"status":"ready"}"#.utf8))
        }
        return Problem(
            status: 503, code: .serviceUnavailable,
            detail: "The database is unreachable or its schema is not current."
        ).response
    }

    func metrics(_ context: RequestContext) async -> HTTPResponse {
        if let expected = metricsTokenDigest {
            // Digests of equal length compared in constant time: neither the token nor its
            // length leaks through timing.
            let presented = AuthorizationHeader.bearerToken(context.request.header("authorization")) ?? ""
            guard ConstantTime.equals(Digest.sha256(Array(presented.utf8)), expected) else {
                return Problem.unauthorized.response
            }
        }
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
        return HTTPResponse(
            status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
    }

    func appleAppSiteAssociation(_ context: RequestContext) async -> HTTPResponse {
        document(wellKnown.appleAppSiteAssociation)
    }

    func assetLinks(_ context: RequestContext) async -> HTTPResponse { document(wellKnown.assetLinks) }

    func webauthn(_ context: RequestContext) async -> HTTPResponse { document(wellKnown.relatedOrigins) }

    func passkeyEndpoints(_ context: RequestContext) async -> HTTPResponse { document(wellKnown.passkeyEndpoints) }

    func openAPIJSON(_ context: RequestContext) async -> HTTPResponse {
        guard let openAPI else { return Problem.notFound.response }
        return HTTPResponse(status: 200, contentType: "application/json", body: openAPI)
    }

    /// JSON is a subset of YAML 1.2, so the JSON document is served as YAML too.
    func openAPIYAML(_ context: RequestContext) async -> HTTPResponse {
        guard let openAPI else { return Problem.notFound.response }
        return HTTPResponse(status: 200, contentType: "application/yaml", body: openAPI)
    }

    private func document(_ body: [UInt8]?) -> HTTPResponse {
        guard let body else { return Problem.notFound.response }
        return HTTPResponse(status: 200, contentType: "application/json", body: body)
    }
}
