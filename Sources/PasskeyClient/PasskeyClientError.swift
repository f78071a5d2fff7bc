public import Foundation
internal import PasskeyWire

/// What a `PasskeyClient` call can fail with.
///
/// Every answer that is not a success keeps its HTTP status and `Retry-After`: a problem+json
/// one in `.server` (`PasskeyServerError.status`, `.retryAfter`), any other (a proxy's HTML
/// page, a body that is not the contract's) in `.unexpectedResponse(_:status:retryAfter:cause:)`.
public enum PasskeyClientError: Error, Sendable, Hashable {
    /// The server answered with a problem+json error (the contract's codes and any newer one).
    case server(PasskeyServerError)
    /// An authenticated call was made without a token (none given, none held).
    case notSignedIn
    /// The calling task was cancelled.
    case cancelled
    /// The platform's passkey sheet ended without a credential (the one-call flows of
    /// `PasskeyAuthorization`): the user cancelled, the device holds an excluded passkey, …
    case authorization(PasskeyAuthorizationError)
    /// The request did not reach the server or its answer did not arrive. The `URLError` code
    /// tells offline (`.notConnectedToInternet`) from `.timedOut`, `.cannotConnectToHost`, …;
    /// nil when URLSession failed with another error. The text is the error's description.
    case transport(URLError.Code?, String)
    /// The answer is not what the contract says (wrong shape, an error that is not problem+json).
    /// `status` is the answer's HTTP status when one arrived and `retryAfter` the seconds of its
    /// `Retry-After` header (e.g. a proxy's 503); `cause` says why it was refused (the decoder's
    /// account: which key is missing, which value has the wrong type, that the body is not JSON
    /// or a value not base64url), so an app developer can see what the server (or a proxy in
    /// front of it) sent.
    case unexpectedResponse(String, status: Int? = nil, retryAfter: Int? = nil, cause: String? = nil)

    /// The problem+json code, when the server gave one.
    public var code: PasskeyErrorCode? {
        if case .server(let error) = self { return error.code }
        return nil
    }

    /// The HTTP status of the answer, when one arrived.
    public var status: Int? {
        switch self {
        case .server(let error): error.status
        case .unexpectedResponse(_, let status, _, _): status
        default: nil
        }
    }

    /// The seconds of the answer's `Retry-After`, when it had one.
    public var retryAfter: Int? {
        switch self {
        case .server(let error): error.retryAfter
        case .unexpectedResponse(_, _, let retryAfter, _): retryAfter
        default: nil
        }
    }

    /// Builds the error for a non-2xx answer.
    init(status: Int, body: Data, retryAfter header: String?, now: Date = Date()) {
        let retryAfter = header.flatMap { RetryAfter.seconds($0, now: now) }
        let problem: ProblemDetails
        do {
            problem = try WireJSON.decode(ProblemDetails.self, from: body)
        } catch {
            self = .unexpectedResponse(
                "HTTP \(status) without a problem+json body of the contract", status: status, retryAfter: retryAfter,
                cause: DecodingFailure.describe(error))
            return
        }
        self = .server(
            PasskeyServerError(
                code: PasskeyErrorCode(rawValue: problem.code), status: status, detail: problem.detail,
                reason: problem.reason, retryAfter: retryAfter))
    }

    /// The error of a failed `URLSession` exchange (cancellation is handled before).
    init(transport error: any Error) {
        self = .transport((error as? URLError)?.code, String(describing: error))
    }
}

/// A problem+json error answer, typed.
public struct PasskeyServerError: Error, Sendable, Hashable {
    /// One of the contract's codes (`PasskeyErrorCode.emailTaken`, …) or a newer one, raw.
    public let code: PasskeyErrorCode
    public let status: Int
    /// For humans (never a secret).
    public let detail: String
    /// Registration verification failures: why (`userPresentFlagNotSet`, …).
    public let reason: String?
    /// Seconds from `Retry-After` (429 `rate-limited`, 503 `service-unavailable`); an HTTP-date
    /// is turned into the seconds until it (0 when it has passed).
    public let retryAfter: Int?

    public init(code: PasskeyErrorCode, status: Int, detail: String, reason: String? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.status = status
        self.detail = detail
        self.reason = reason
        self.retryAfter = retryAfter
    }
}

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date.
enum RetryAfter {
    /// The seconds to wait; nil when the value is neither form.
    static func seconds(_ header: String, now: Date) -> Int? {
        let value = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(value) { return seconds >= 0 ? seconds : nil }
        guard let date = httpDate.withLock({ $0.date(from: value) }) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    /// IMF-fixdate, e.g. `Wed, 21 Oct 2026 07:28:00 GMT` (DateFormatter is not Sendable).
    private static let httpDate = ClientLock(
        {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter
        }())
}
