internal import Foundation
internal import PasskeyDomain

/// `MAIL_URL`, `MAIL_FROM` and `MAIL_MAX_ATTEMPTS`, validated at start (docs/mail.md). Nil in
/// `ServerConfiguration.mail` when `MAIL_URL` is unset: mail is off.
struct MailSettings: Sendable, Equatable {
    enum Transport: Sendable, Equatable {
        /// `smtp://` or `smtps://`; `security` follows from the scheme and the host.
        case smtp(host: String, port: Int, security: Security, username: String?, password: String?)
        /// `file:///folder`.
        case file(folder: String)
    }

    enum Security: Sendable, Equatable {
        case startTLS, implicitTLS, plainLoopback
    }

    var transport: Transport
    var from: EmailAddress
    var maxAttempts: Int
    /// Internal knobs (docs/mail.md), from hidden variables that tests shorten:
    /// `MAIL_POLL_INTERVAL_MILLISECONDS` (how often an idle sender looks for due mail),
    /// `MAIL_RETRY_BASE_MILLISECONDS` (the first retry's nominal delay, doubling after),
    /// `MAIL_LEASE_MILLISECONDS` (how long a claimed mail is another sender's to skip).
    var pollInterval: TimeInterval = 1
    var retryBase: TimeInterval = 30
    var lease: TimeInterval = 120

    /// Where mails go, for the start-up line: the folder, or scheme, host and port (never the
    /// user name or password).
    var destination: String {
        switch transport {
        case .file(let folder): return folder
        case .smtp(let host, let port, let security, _, _):
            let shown = host.contains(":") ? "[\(host)]" : host
            return "\(security == .implicitTLS ? "smtps" : "smtp")://\(shown):\(port)"
        }
    }

    /// Parses `MAIL_URL`. The problem it reports never repeats the URL (which may hold a password).
    static func transport(from raw: String) throws(ConfigurationError) -> Transport {
        func invalid(_ problem: String) -> ConfigurationError {
            ConfigurationError(variable: "MAIL_URL", problem: problem)
        }
        guard let components = URLComponents(string: raw), let scheme = components.scheme?.lowercased() else {
            throw invalid("must be smtp://[user:password@]host[:port], smtps://host[:port] or file:///folder")
        }
        switch scheme {
        case "file":
            guard components.host?.isEmpty ?? true else { throw invalid("file:// takes no host: use file:///folder") }
            let path = components.percentEncodedPath.removingPercentEncoding ?? components.path
            guard path.hasPrefix("/"), path.count > 1, components.query == nil, components.fragment == nil else {
                throw invalid("file:// needs an absolute folder path, such as file:///var/mail/passkey")
            }
            return .file(folder: path)
        case "smtp", "smtps":
            guard let host = components.host, !host.isEmpty else { throw invalid("\(scheme):// needs a host") }
            guard components.path.isEmpty || components.path == "/", components.query == nil,
                components.fragment == nil
            else { throw invalid("\(scheme):// takes no path, query or fragment") }
            let port: Int
            if let given = components.port {
                guard (1...65_535).contains(given) else { throw invalid("the port must be in 1...65535") }
                port = given
            } else if Self.hasEmptyPort(raw) {
                throw invalid("the port must be in 1...65535")
            } else {
                port = scheme == "smtps" ? 465 : 587
            }
            let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            let security: Security =
                scheme == "smtps" ? .implicitTLS : (Self.isLoopback(bare) ? .plainLoopback : .startTLS)
            let username = components.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 }
            let password = components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
            if password != nil, username?.isEmpty ?? true { throw invalid("a password needs a user name") }
            return .smtp(
                host: bare, port: port, security: security, username: username.flatMap { $0.isEmpty ? nil : $0 },
                password: password)
        default:
            throw invalid("the scheme must be smtp, smtps or file")
        }
    }

    /// `host:` with nothing after the colon (URLComponents reports no port).
    private static func hasEmptyPort(_ raw: String) -> Bool {
        guard let authority = raw.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first else {
            return false
        }
        return authority.hasSuffix(":")
    }

    /// 127.0.0.0/8, ::1 or localhost: plain SMTP is allowed there.
    static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }
}
