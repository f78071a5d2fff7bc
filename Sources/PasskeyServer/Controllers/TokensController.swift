internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// (v4) Tokens for the product's other services: `POST /v1/sessions/current/tokens` (a JWT for
/// the caller's session) and `GET /.well-known/jwks.json` (the keys that verify it).
struct TokensController: Sendable {
    let mint: ServiceTokenUseCase
    let keySet: KeySetUseCase

    func register(in routes: inout Routes) {
        routes.sessionToken(.post, "/v1/sessions/current/tokens", feature: mint.checkEnabled, token)
        routes.anyone(.get, "/.well-known/jwks.json", keys)
    }

    @Sendable func token(_ request: HTTPRequest, context: SessionTokenContext) async throws -> HTTPResponse {
        let body = try request.decode(ServiceTokenRequestBody.self, orIfEmpty: ServiceTokenRequestBody())
        let minted = try await context.execute { () throws(ServiceTokenError) in
            try await mint.execute(token: context.token, audience: body.audience)
        }
        return try .json(
            201, ServiceTokenResponseBody(token: minted.token, audience: minted.audience, expiresAt: minted.expiresAt))
    }

    /// `{keys: [JWK]}`; consumers may keep it for 300 s (a rotation's key is published 600 s
    /// before it signs).
    @Sendable func keys(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let keys = try await context.execute { () throws(RepositoryError) in try await keySet.execute() }
        var writer = JSONWriter(capacity: 256)
        writer.object { object in
            object.key("keys")
            object.array { array in
                for key in keys {
                    array.object { jwk in
                        jwk.field("alg", "ES256")
                        jwk.field("crv", "P-256")
                        jwk.field("kid", key.id.value)
                        jwk.field("kty", "EC")
                        jwk.field("use", "sig")
                        jwk.field("x", Base64URL.encode(key.publicKey.x))
                        jwk.field("y", Base64URL.encode(key.publicKey.y))
                    }
                }
            }
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=300")],
            body: writer.bytes)
    }
}

/// (v4) `POST /v1/introspect` (RFC 7662), for the services of `INTROSPECTION_CLIENTS`: registered
/// only while one is configured, so without them the path answers 404 like one that does not
/// exist. The client is checked (HTTP Basic, constant time) before the body is read.
struct IntrospectionController: Sendable {
    let introspection: IntrospectionUseCase
    let clients: IntrospectionClients

    func register(in routes: inout Routes) {
        routes.serviceClient(.post, "/v1/introspect", clients: clients, introspect)
    }

    @Sendable func introspect(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let contentType = request.header("content-type")?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard contentType == "application/x-www-form-urlencoded", let form = FormBody(request.body) else {
            throw Problem.invalidRequest("The body must be application/x-www-form-urlencoded.")
        }
        let tokens = form.values("token")
        guard tokens.count == 1, let token = tokens.first, !token.isEmpty else {
            throw Problem.invalidRequest("token is required, once.")
        }
        let facts = try await context.execute { () throws(RepositoryError) in
            try await introspection.execute(token: token)
        }
        return HTTPResponse(status: 200, contentType: "application/json", body: Self.body(facts))
    }

    /// The Introspection object, keys sorted; exactly `{"active":false}` for every inactive token.
    static func body(_ facts: ActiveTokenFacts?) -> [UInt8] {
        guard let facts else { return Array(#"{"active":false}"#.utf8) }
        var writer = JSONWriter(capacity: 400)
        writer.object { object in
            object.key("active")
            object.bool(true)
            object.key("amr")
            object.array { array in for value in facts.authenticationMethods { array.string(value) } }
            if let jwt = facts.jwt { object.field("aud", jwt.audience) }
            object.key("auth_time")
            object.integer(Int(facts.authTime.timeIntervalSince1970))
            object.key("exp")
            object.integer(Int(facts.expiresAt.timeIntervalSince1970))
            object.key("iat")
            object.integer(Int(facts.issuedAt.timeIntervalSince1970))
            if let jwt = facts.jwt {
                object.field("iss", jwt.issuer)
                object.field("jti", jwt.tokenID.uuidString.lowercased())
            }
            object.field("method", facts.method.rawValue)
            object.field("sid", facts.sessionID.description)
            object.field("stage", facts.stage.rawValue)
            object.field("sub", facts.subject.description)
            object.field("token_type", "Bearer")
        }
        return writer.bytes
    }
}
