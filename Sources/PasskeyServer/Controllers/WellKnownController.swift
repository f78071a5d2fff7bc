internal import PasskeyHTTP

/// `/.well-known/…`: the documents that let apps and browsers use this relying party's passkeys
/// (404 for each one that is not configured).
struct WellKnownController: Sendable {
    let documents: WellKnownDocuments

    func register(in routes: inout Routes) {
        routes.anyone(.get, "/.well-known/apple-app-site-association", appleAppSiteAssociation)
        routes.anyone(.get, "/.well-known/assetlinks.json", assetLinks)
        routes.anyone(.get, "/.well-known/webauthn", webauthn)
        routes.anyone(.get, "/.well-known/passkey-endpoints", passkeyEndpoints)
    }

    @Sendable func appleAppSiteAssociation(_ request: HTTPRequest, context: RequestContext) throws -> HTTPResponse {
        try Self.document(documents.appleAppSiteAssociation)
    }

    @Sendable func assetLinks(_ request: HTTPRequest, context: RequestContext) throws -> HTTPResponse {
        try Self.document(documents.assetLinks)
    }

    @Sendable func webauthn(_ request: HTTPRequest, context: RequestContext) throws -> HTTPResponse {
        try Self.document(documents.relatedOrigins)
    }

    @Sendable func passkeyEndpoints(_ request: HTTPRequest, context: RequestContext) throws -> HTTPResponse {
        try Self.document(documents.passkeyEndpoints)
    }

    private static func document(_ body: [UInt8]?) throws(Problem) -> HTTPResponse {
        guard let body else { throw Problem.notFound }
        return HTTPResponse(status: 200, contentType: "application/json", body: body)
    }
}
