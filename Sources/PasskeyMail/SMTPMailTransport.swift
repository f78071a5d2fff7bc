internal import Dispatch
package import Foundation
package import PasskeyApplication
internal import PasskeyCurl
package import PasskeyDomain

/// `MailTransport` over SMTP through libcurl (docs/mail.md). libcurl's easy interface blocks, so
/// every transfer runs on one dedicated serial dispatch queue (its own thread, never one of
/// Swift's cooperative threads); the sender sends one mail at a time anyway.
///
/// Credentials are passed with `CURLOPT_USERNAME`/`CURLOPT_PASSWORD`, never in the URL given to
/// libcurl, and errors are built from libcurl's code and the SMTP reply code only, so they never
/// reach a log line or `last_error`.
package final class SMTPMailTransport: MailTransport {
    package struct Configuration: Sendable, Hashable {
        package var host: String
        package var port: Int
        package var security: SMTPSecurity
        package var username: String?
        package var password: String?
        package var from: EmailAddress
        package var connectTimeout: TimeInterval = 10
        package var transferTimeout: TimeInterval = 60

        package init(
            host: String, port: Int, security: SMTPSecurity, username: String? = nil, password: String? = nil,
            from: EmailAddress
        ) {
            self.host = host
            self.port = port
            self.security = security
            self.username = username
            self.password = password
            self.from = from
        }
    }

    private let configuration: Configuration
    private let writer: MailMessageWriter
    private let queue = DispatchQueue(label: "passkey.mail.smtp")

    package init(configuration: Configuration) {
        self.configuration = configuration
        self.writer = MailMessageWriter(from: configuration.from)
    }

    package var destination: String {
        let scheme = configuration.security == .implicitTLS ? "smtps" : "smtp"
        return "\(scheme)://\(Self.urlHost(configuration.host)):\(configuration.port)"
    }

    package func send(_ message: MailMessage) async throws(MailTransportError) {
        let bytes = try writer.render(message, date: Date())
        let outcome: Result<Void, MailTransportError> = await withCheckedContinuation { continuation in
            queue.async { [self] in continuation.resume(returning: transfer(bytes, to: message.recipient)) }
        }
        try outcome.get()
    }

    private static func urlHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// One blocking SMTP transaction on the dedicated queue.
    private func transfer(_ bytes: [UInt8], to recipient: EmailAddress) -> Result<Void, MailTransportError> {
        var settings: [CurlSetting] = [
            .url(destination), .requireTLS(configuration.security != .plainLoopback),
            .mailFrom("<\(configuration.from.value)>"), .mailRecipients(["<\(recipient.value)>"]), .upload(bytes),
            .connectTimeout(milliseconds: Int(configuration.connectTimeout * 1000)),
            .timeout(milliseconds: Int(configuration.transferTimeout * 1000)),
            // Only SMTP(S): the URL is ours, but nothing else is needed.
            .protocols("smtp,smtps"),
        ]
        if let username = configuration.username { settings.append(.username(username)) }
        if let password = configuration.password { settings.append(.password(password)) }
        let outcome = CurlTransfer.perform(settings)
        guard let error = outcome.error else { return .success(()) }
        let reply = outcome.responseCode
        let cause = reply > 0 ? "\(error) (SMTP reply \(reply))" : error
        // A 5xx reply to the sender, recipient or message is permanent; a refused login may be a
        // configuration being fixed, and everything else (connect, timeouts, 4xx) may pass.
        let permanent = (500..<600).contains(reply) && !outcome.loginDenied
        return .failure(MailTransportError(permanent ? .permanent : .transient, cause: cause))
    }
}
