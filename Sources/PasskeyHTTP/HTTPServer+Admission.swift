// The strict checks on a request head (see `RequestHead`), and the answers for refused ones.
extension HTTPServer {
    /// The answer for a request whose head is refused (`layerError(400)` or `layerError(431)`,
    /// with `Connection: close`), or `nil` when the head is acceptable.
    func refusal(
        of connection: OpaquePointer, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, target: String
    ) -> HTTPResponse? {
        guard let method, let version else { return closing(configuration.layerError(400)) }
        let verdict = RequestHead.verdict(
            connection: connection, method: method, version: version, target: target,
            headers: LoopDaemon.headers(of: connection), maximumHeadBytes: configuration.maximumHeadBytes)
        switch verdict {
        case .acceptable:
            return nil
        case .malformed:
            return closing(configuration.layerError(400))
        case .tooLarge:
            return closing(configuration.layerError(431))
        }
    }

    /// `response` with `Connection: close` (replacing any `Connection` field it had).
    private func closing(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set("Connection", "close")
        return response
    }
}
