/// Delivers one mail (spec v3, "Delivery"): SMTP or a folder of `.eml` files, behind this port.
/// The background sender (`MailOutboxSender`) calls it outside any database transaction.
package protocol MailTransport: Sendable {
    /// Hands `message` to the relay (or writes it). A thrown error says whether trying again
    /// later may help; its cause never contains credentials.
    func send(_ message: MailMessage) async throws(MailTransportError)

    /// Where mails go, for the start-up line: a folder, or `smtp://host:port` (never credentials).
    var destination: String { get }
}
