/// A bearer token fixed by configuration (`METRICS_TOKEN`): only its SHA-256 is kept, and a
/// presented token's digest is compared with it in constant time, so neither the token nor its
/// length leaks through timing.
package struct ConfiguredTokenCheck: Sendable {
    private let expected: [UInt8]?
    private let digester: any SecretDigester

    /// `token` nil (unset) lets every request through.
    package init(token: String?, digester: any SecretDigester) {
        self.expected = token.map { digester.sha256(Array($0.utf8)) }
        self.digester = digester
    }

    /// True when no token is configured, or `presented` is it.
    package func accepts(_ presented: String?) -> Bool {
        guard let expected else { return true }
        let digest = digester.sha256(Array((presented ?? "").utf8))
        return digester.constantTimeEquals(digest, expected)
    }
}
