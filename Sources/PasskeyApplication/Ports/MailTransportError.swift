/// Why a mail could not be delivered. `transient` failures (relay unreachable, 4xx, timeout) are
/// retried with backoff; `permanent` ones (5xx refusal of the recipient or message) abandon the
/// mail at once. `cause` is short, for `mail_outbox.last_error` and the log: it never contains
/// credentials or the message body.
package struct MailTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        case transient
        case permanent
    }

    package let kind: Kind
    package let cause: String

    package init(_ kind: Kind, cause: String) {
        self.kind = kind
        self.cause = String(String.UnicodeScalarView(cause.unicodeScalars.prefix(400)))
    }

    package var description: String { "\(kind): \(cause)" }
}
