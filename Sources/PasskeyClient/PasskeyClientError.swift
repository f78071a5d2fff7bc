internal import Foundation
public import PasskeyWire

/// What a `PasskeyClient` call can fail with.
public enum PasskeyClientError: Error, Sendable, Hashable {
    /// The server answered with one of the contract's errors (problem+json).
    case server(PasskeyServerError)
    /// An authenticated call was made without a token (none given, none held).
    case notSignedIn
    /// The calling task was cancelled.
    case cancelled
    /// The platform's passkey sheet ended without a credential (the one-call flows of
    /// `PasskeyAuthorization`): the user cancelled, the device holds an excluded passkey, …
    case authorization(PasskeyAuthorizationError)
    /// The request did not reach the server or its answer did not arrive (URLSession's error).
    case transport(String)
    /// The answer is not what the contract says (wrong shape, not problem+json on an error, a
    /// code this client does not know). `status` is the answer's HTTP status when one arrived;
    /// `cause` says why it was refused (the decoder's account: which key is missing, which value
    /// has the wrong type, or that the body is not JSON), so an app developer can see what the
    /// server (or a proxy in front of it) sent.
    case unexpectedResponse(String, status: Int? = nil, cause: String? = nil)

    /// The contract's error code, when the server gave one.
    public var code: ErrorCode? {
        if case .server(let error) = self { return error.code }
        return nil
    }

    /// Builds the error for a non-2xx answer.
    init(status: Int, body: Data, retryAfter: String?) {
        let problem: ProblemDetails
        do {
            problem = try WireJSON.decode(ProblemDetails.self, from: body)
        } catch {
            self = .unexpectedResponse(
                "HTTP \(status) without a problem+json body of the contract", status: status,
                cause: DecodingFailure.describe(error))
            return
        }
        guard let code = problem.errorCode else {
            self = .unexpectedResponse(
                "HTTP \(status) with a code this client does not know", status: status,
                cause: "code \"\(problem.code)\": \(problem.detail)")
            return
        }
        self = .server(
            PasskeyServerError(
                code: code, status: status, detail: problem.detail, reason: problem.reason,
                retryAfter: retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }))
    }
}

/// One of the contract's error answers, typed.
public struct PasskeyServerError: Error, Sendable, Hashable {
    public let code: ErrorCode
    public let status: Int
    /// For humans (never a secret).
    public let detail: String
    /// Registration verification failures: why (`userPresentFlagNotSet`, …).
    public let reason: String?
    /// Seconds from `Retry-After` (429 `rate-limited`, 503 `service-unavailable`).
    public let retryAfter: Int?

    public init(code: ErrorCode, status: Int, detail: String, reason: String? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.status = status
        self.detail = detail
        self.reason = reason
        self.retryAfter = retryAfter
    }
}
