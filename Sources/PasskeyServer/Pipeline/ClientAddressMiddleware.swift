internal import PasskeyHTTP

/// Resolves the client address (the TCP peer, or what a trusted proxy forwarded) and the key
/// per-address limits count by; an `X-Forwarded-For` entry that is not an address is logged at
/// `warning` (sanitised and cut to 32 bytes: it may come from anywhere the proxy copied it from).
struct ClientAddressMiddleware: ServerMiddleware {
    let resolver: ClientAddressResolver

    func handle(_ request: HTTPRequest, context: RequestContext, next: NextResponder) async -> HTTPResponse {
        var context = context
        let resolution = resolver.resolve(
            peer: request.remoteAddress,
            forwardedFor: request.headers.values("x-forwarded-for"))
        context.clientAddress = resolution.address
        context.rateLimitKey = ClientAddressResolver.rateLimitKey(for: context.clientAddress)
        if let entry = resolution.unusableEntry {
            context.logger.warning([
                .event: "forwarded_for", .outcome: "not_an_address", .entry: entry.text,
                .entryBytes: String(entry.bytes), .client: resolution.address,
            ])
        }
        return await next(request, context)
    }
}
