internal import PasskeyApplication
internal import PasskeyHTTP

extension HTTPRequest {
    /// The longest `User-Agent` kept (the contract's activity events hold at most 256 characters).
    static let userAgentLimit = 256

    /// Where this request came from, for the notices its change queues (and the activity log):
    /// the client address `ClientAddressMiddleware` resolved (pass `context.clientAddress`) and
    /// the `User-Agent` header, cut to 256 characters.
    func origin(clientAddress: String) -> RequestOrigin {
        RequestOrigin(
            clientAddress: clientAddress, userAgent: header("User-Agent").map { String($0.prefix(Self.userAgentLimit)) }
        )
    }
}
