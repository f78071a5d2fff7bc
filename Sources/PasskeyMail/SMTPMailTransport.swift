internal import CCurl
internal import Dispatch
package import Foundation
package import PasskeyApplication
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
        _ = Self.globalInit
        self.configuration = configuration
        self.writer = MailMessageWriter(from: configuration.from)
    }

    /// `curl_global_init`, once per process, before the first handle.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

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
        guard let handle = curl_easy_init() else {
            return .failure(MailTransportError(.transient, cause: "libcurl: cannot create a handle"))
        }
        defer { curl_easy_cleanup(handle) }
        let body = UploadBody(bytes)
        let recipients: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "<\(recipient.value)>")
        defer { curl_slist_free_all(recipients) }
        var setup = CURLE_OK
        func set(_ code: CURLcode) { if setup == CURLE_OK { setup = code } }
        set(passkey_curl_set_string(handle, CURLOPT_URL, destination))
        switch configuration.security {
        case .startTLS: set(passkey_curl_set_long(handle, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)))
        case .implicitTLS: set(passkey_curl_set_long(handle, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)))
        case .plainLoopback: set(passkey_curl_set_long(handle, CURLOPT_USE_SSL, Int(CURLUSESSL_NONE.rawValue)))
        }
        set(passkey_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        set(passkey_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        if let username = configuration.username { set(passkey_curl_set_string(handle, CURLOPT_USERNAME, username)) }
        if let password = configuration.password { set(passkey_curl_set_string(handle, CURLOPT_PASSWORD, password)) }
        set(passkey_curl_set_string(handle, CURLOPT_MAIL_FROM, "<\(configuration.from.value)>"))
        set(passkey_curl_set_list(handle, CURLOPT_MAIL_RCPT, recipients))
        set(passkey_curl_set_long(handle, CURLOPT_UPLOAD, 1))
        set(passkey_curl_set_long(handle, CURLOPT_INFILESIZE, bytes.count))
        set(passkey_curl_set_read_function(handle, uploadRead))
        set(passkey_curl_set_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(body).toOpaque()))
        set(passkey_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000)))
        set(passkey_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(configuration.transferTimeout * 1000)))
        set(passkey_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        // Only SMTP(S), also for redirects: the URL is ours, but nothing else is needed.
        set(passkey_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"))
        guard setup == CURLE_OK else {
            return .failure(MailTransportError(.transient, cause: "libcurl setup: \(Self.text(setup))"))
        }
        let code = withExtendedLifetime(body) { curl_easy_perform(handle) }
        guard code != CURLE_OK else { return .success(()) }
        var reply = 0
        _ = passkey_curl_response_code(handle, &reply)
        let cause = reply > 0 ? "\(Self.text(code)) (SMTP reply \(reply))" : Self.text(code)
        // A 5xx reply to the sender, recipient or message is permanent; a refused login may be a
        // configuration being fixed, and everything else (connect, timeouts, 4xx) may pass.
        let permanent = (500..<600).contains(reply) && code != CURLE_LOGIN_DENIED
        return .failure(MailTransportError(permanent ? .permanent : .transient, cause: cause))
    }

    private static func text(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }
}

/// The message being uploaded and how far libcurl has read it (`CURLOPT_READDATA`).
private final class UploadBody {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// libcurl's read callback: copies the next part of the `UploadBody` behind `state`.
private let uploadRead: passkey_curl_read_callback = { buffer, size, count, state in
    guard let buffer, let state else { return 0 }
    let body = Unmanaged<UploadBody>.fromOpaque(state).takeUnretainedValue()
    let length = min(size * count, body.bytes.count - body.offset)
    guard length > 0 else { return 0 }
    body.bytes.withUnsafeBufferPointer { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + body.offset, byteCount: length)
    }
    body.offset += length
    return length
}
