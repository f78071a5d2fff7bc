internal import Foundation
internal import PasskeyApplication
internal import PasskeyHTTP

/// `GET /` and `GET /assets/{file}`: the reference web client, from memory, with a strict
/// Content-Security-Policy; (v3) `GET /operator/` (and `/operator`), the operator page, only while
/// `OPERATOR_TOKEN` is set or (v4) an operator exists (otherwise 404, as an unknown path). `index.html` is revalidated on every load (`no-cache` + ETag), so a
/// new deployment is picked up at once; assets may be cached for a few minutes.
struct WebClientController: Sendable {
    /// nil when `WEB_CLIENT` is on but the folder was not found: every request is then 404.
    let files: WebClientFiles?
    /// (v4) Whether `/operator/` is served now: `OPERATOR_TOKEN` is set or an operator exists. The
    /// page asks for the token itself; serving it needs none (it holds no figures).
    var operators: OperatorAuthorizationUseCase? = nil

    /// No inline script or style, nothing from another origin, no framing, no foreign form targets.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    static let indexCacheControl = "no-cache"
    static let assetCacheControl = "public, max-age=300"

    func register(in routes: inout Routes) {
        routes.anyone(.get, "/", index)
        routes.anyone(.get, "/assets/{file}", asset)
        if let operators {
            routes.anyone(.get, "/operator/", visible: operators.visibility, operatorPage)
            routes.anyone(.get, "/operator", visible: operators.visibility, operatorPage)
        }
    }

    @Sendable func index(_ request: HTTPRequest, context: RequestContext) throws -> HTTPResponse {
        guard let files else { throw Problem.notFound }
        return Self.response(files.index, cacheControl: Self.indexCacheControl, request: request)
    }

    /// The same page at `/operator` and `/operator/`: it names its assets by absolute path.
    @Sendable func operatorPage(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        guard let page = files?.operatorPage, try await operators?.isEnabled() == true else { throw Problem.notFound }
        return Self.response(page, cacheControl: Self.indexCacheControl, request: request)
    }

    @Sendable func asset(_ request: HTTPRequest, context: RequestContext) throws -> HTTPResponse {
        guard let files, let name = context.parameters["file"], let file = files.assets[name] else {
            throw Problem.notFound
        }
        return Self.response(file, cacheControl: Self.assetCacheControl, request: request)
    }

    private static func response(_ file: StaticFile, cacheControl: String, request: HTTPRequest) -> HTTPResponse {
        let headers: HTTPFields = [
            ("Cache-Control", cacheControl), ("ETag", file.etag),
            ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ]
        if let tags = request.header("if-none-match"),
            tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        var fields: HTTPFields = [("Content-Type", file.contentType)]
        fields.append(contentsOf: headers)
        return HTTPResponse(status: .ok, headers: fields, body: file.body)
    }
}
