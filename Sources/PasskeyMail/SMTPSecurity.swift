/// How an SMTP connection is protected (docs/mail.md).
package enum SMTPSecurity: Sendable, Hashable {
    /// `smtp://` to a non-loopback host: STARTTLS is required (`CURLUSESSL_ALL`), the certificate
    /// and host name are verified; a relay that does not offer it fails the attempt.
    case startTLS
    /// `smtps://`: TLS from the first byte (port 465 by default).
    case implicitTLS
    /// `smtp://` to a loopback address (127.0.0.0/8, ::1, localhost): plain SMTP is allowed.
    case plainLoopback
}
