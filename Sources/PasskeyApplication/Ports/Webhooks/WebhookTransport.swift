package import PasskeyDomain

/// (v4) Sends one webhook request: an HTTP POST to the endpoint, redirects never followed, the
/// answer's body read no further than a few KiB, within the configured timeout.
package protocol WebhookTransport: Sendable {
    func post(_ message: WebhookMessage, to url: WebhookURL) async -> WebhookPostOutcome
}

/// The request of one attempt: its headers and body (`WebhookMessageFormat` makes it).
package struct WebhookMessage: Hashable, Sendable {
    package let headers: [WebhookHeader]
    package let body: [UInt8]

    package init(headers: [WebhookHeader], body: [UInt8]) {
        self.headers = headers
        self.body = body
    }
}

package struct WebhookHeader: Hashable, Sendable {
    package let name: String
    package let value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// What came of an attempt.
package enum WebhookPostOutcome: Hashable, Sendable {
    /// A 2xx answer, with its status.
    case delivered(status: Int)
    /// Anything else: another status (a redirect too), no connection, no answer in time. `cause`
    /// is for the operator's log: the status or the transport's error, never a header or body.
    case failed(cause: String)
}

/// (v4) Makes the request of one attempt: the body (the event's payload, as the events API
/// serves it) and the Standard Webhooks headers, signed with every live secret.
package protocol WebhookMessageFormat: Sendable {
    func message(for event: LoggedEvent, secrets: [WebhookSecret], timestamp: Int) throws(WebhookFormatError)
        -> WebhookMessage
}

/// The payload could not be encoded or signed; `cause` is for the operator's log.
package struct WebhookFormatError: Error, Hashable, Sendable {
    package let cause: String

    package init(cause: String) { self.cause = cause }
}
