/// An RFC 9457 problem detail with the contract's stable `code`: every error answer.
public struct ProblemDetails: Codable, Sendable, Hashable {
    public let type: String
    /// The status phrase.
    public let title: String
    public let status: Int
    /// For humans; never a secret, never an echo of input.
    public let detail: String
    /// The raw `code`; `errorCode` reads it as a value of the contract's list.
    public let code: String
    /// Registration verification failures only (`userPresentFlagNotSet`, …).
    public let reason: String?

    public init(title: String, status: Int, detail: String, code: ErrorCode, reason: String? = nil) {
        self.type = "about:blank"
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code.rawValue
        self.reason = reason
    }

    /// The contract's code; nil for a code this version does not know (a newer server).
    public var errorCode: ErrorCode? { ErrorCode(rawValue: code) }
}
