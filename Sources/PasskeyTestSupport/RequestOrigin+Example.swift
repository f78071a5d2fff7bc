package import PasskeyApplication

extension RequestOrigin {
    /// The origin unit tests pass for a request (a documentation address, RFC 5737).
    package static let example = RequestOrigin(clientAddress: "192.0.2.10", userAgent: "PasskeyTests/1.0")
}
