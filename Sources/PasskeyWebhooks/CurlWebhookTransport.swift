internal import Dispatch
package import PasskeyApplication
internal import PasskeyCurl
package import PasskeyDomain

/// `WebhookTransport` over HTTP(S) through libcurl (docs/webhooks.md, "Delivery"): one POST per
/// attempt, within `WEBHOOK_TIMEOUT_SECONDS` (connection included), redirects never followed,
/// at most 4 KiB of the answer read. libcurl blocks, so each transfer runs on a concurrent
/// dispatch queue (GCD's threads, never Swift's cooperative ones); the sender bounds how many
/// are in flight.
///
/// The outcome's cause is the status or libcurl's error text: never a header, the signature or
/// the answer's body.
package struct CurlWebhookTransport: WebhookTransport {
    /// The part of an answer's body that is read (and dropped).
    package static let responseBodyLimit = 4096

    let timeout: Double
    private let queue = DispatchQueue(label: "passkey.webhooks.http", attributes: .concurrent)

    package init(timeoutSeconds: Double) { self.timeout = max(0.001, timeoutSeconds) }

    package func post(_ message: WebhookMessage, to url: WebhookURL) async -> WebhookPostOutcome {
        let settings: [CurlSetting] = [
            .url(url.value), .protocols("https,http"), .post(message.body),
            .headers(message.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]),
            .timeout(milliseconds: Int(timeout * 1000)),
            .responseBodyLimit(Self.responseBodyLimit),
        ]
        let outcome = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: CurlTransfer.perform(settings)) }
        }
        return Self.outcome(outcome)
    }

    /// A 2xx status delivers, even when the answer's body was cut at the limit.
    static func outcome(_ outcome: CurlOutcome) -> WebhookPostOutcome {
        let status = outcome.responseCode
        if (200..<300).contains(status) { return .delivered(status: status) }
        if (300..<400).contains(status) { return .failed(cause: "HTTP \(status) (redirects are not followed)") }
        if status > 0 { return .failed(cause: "HTTP \(status)") }
        return .failed(cause: outcome.error ?? "no answer")
    }
}
