internal import CCurl

/// One setting of a libcurl transfer, in Swift terms: the only way the adapters (SMTP mail,
/// webhooks) reach libcurl, so that no libcurl type leaves this module.
package enum CurlSetting: Sendable, Hashable {
    case url(String)
    /// The protocols the transfer may use (`CURLOPT_PROTOCOLS_STR`), e.g. `"https,http"`.
    case protocols(String)
    case connectTimeout(milliseconds: Int)
    /// The whole transfer, connection included.
    case timeout(milliseconds: Int)
    /// TLS is required (`CURLUSESSL_ALL`), or not used (`CURLUSESSL_NONE`): SMTP.
    case requireTLS(Bool)
    case username(String)
    case password(String)
    case mailFrom(String)
    case mailRecipients([String])
    /// The body uploaded (SMTP's message).
    case upload([UInt8])
    /// An HTTP POST of these bytes.
    case post([UInt8])
    /// Request headers, each `Name: value`.
    case headers([String])
    /// At most this many bytes of the answer's body are read; past them the transfer stops
    /// (`CurlOutcome.bodyLimitReached`).
    case responseBodyLimit(Int)
}

/// What a transfer came to.
package struct CurlOutcome: Sendable, Hashable {
    /// libcurl reported no error.
    package let succeeded: Bool
    /// libcurl's text for its error (nil on success): never a URL, header or credential.
    package let error: String?
    /// The server's last reply code (HTTP status, SMTP reply), 0 when none came.
    package let responseCode: Int
    /// The server refused the login (SMTP).
    package let loginDenied: Bool
    /// The answer's body was longer than `responseBodyLimit`: the transfer stopped there.
    package let bodyLimitReached: Bool
}

/// Runs one libcurl easy transfer with these settings and blocks until it ends. Redirects are
/// never followed and signals never used (`CURLOPT_NOSIGNAL`); peers and host names are always
/// verified. Call it off Swift's cooperative threads (a dispatch queue): it blocks.
package enum CurlTransfer {
    /// `curl_global_init`, once per process, before the first handle.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    package static func perform(_ settings: [CurlSetting]) -> CurlOutcome {
        _ = globalInit
        guard let handle = curl_easy_init() else {
            return CurlOutcome(
                succeeded: false, error: "libcurl: cannot create a handle", responseCode: 0, loginDenied: false,
                bodyLimitReached: false)
        }
        defer { curl_easy_cleanup(handle) }
        let state = TransferState()
        var lists: [UnsafeMutablePointer<curl_slist>?] = []
        defer { for list in lists { curl_slist_free_all(list) } }
        var setup = CURLE_OK
        func set(_ code: CURLcode) { if setup == CURLE_OK { setup = code } }
        func list(_ entries: [String]) -> UnsafeMutablePointer<curl_slist>? {
            var head: UnsafeMutablePointer<curl_slist>?
            for entry in entries { head = curl_slist_append(head, entry) }
            lists.append(head)
            return head
        }
        set(passkey_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        set(passkey_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(passkey_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        set(passkey_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        set(passkey_curl_set_write_function(handle, writeBody))
        set(passkey_curl_set_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(state).toOpaque()))
        for setting in settings {
            switch setting {
            case .url(let url): set(passkey_curl_set_string(handle, CURLOPT_URL, url))
            case .protocols(let names): set(passkey_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, names))
            case .connectTimeout(let ms): set(passkey_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, ms)))
            case .timeout(let ms): set(passkey_curl_set_long(handle, CURLOPT_TIMEOUT_MS, max(1, ms)))
            case .requireTLS(let required):
                let level = required ? CURLUSESSL_ALL : CURLUSESSL_NONE
                set(passkey_curl_set_long(handle, CURLOPT_USE_SSL, Int(level.rawValue)))
            case .username(let name): set(passkey_curl_set_string(handle, CURLOPT_USERNAME, name))
            case .password(let password): set(passkey_curl_set_string(handle, CURLOPT_PASSWORD, password))
            case .mailFrom(let address): set(passkey_curl_set_string(handle, CURLOPT_MAIL_FROM, address))
            case .mailRecipients(let addresses): set(passkey_curl_set_list(handle, CURLOPT_MAIL_RCPT, list(addresses)))
            case .upload(let bytes):
                state.upload = bytes
                set(passkey_curl_set_long(handle, CURLOPT_UPLOAD, 1))
                set(passkey_curl_set_long(handle, CURLOPT_INFILESIZE, bytes.count))
                set(passkey_curl_set_read_function(handle, readUpload))
                set(passkey_curl_set_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(state).toOpaque()))
            case .post(let bytes):
                // The size first: COPYPOSTFIELDS then copies that many bytes, not up to a NUL.
                set(passkey_curl_set_long(handle, CURLOPT_POST, 1))
                set(passkey_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count))
                set(
                    bytes.withUnsafeBytes { buffer in
                        passkey_curl_set_pointer(
                            handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
                    })
            case .headers(let headers): set(passkey_curl_set_list(handle, CURLOPT_HTTPHEADER, list(headers)))
            case .responseBodyLimit(let limit): state.bodyLimit = max(0, limit)
            }
        }
        guard setup == CURLE_OK else {
            return CurlOutcome(
                succeeded: false, error: "libcurl setup: \(text(setup))", responseCode: 0, loginDenied: false,
                bodyLimitReached: false)
        }
        let code = withExtendedLifetime(state) { curl_easy_perform(handle) }
        var reply = 0
        _ = passkey_curl_response_code(handle, &reply)
        return CurlOutcome(
            succeeded: code == CURLE_OK, error: code == CURLE_OK ? nil : text(code), responseCode: reply,
            loginDenied: code == CURLE_LOGIN_DENIED, bodyLimitReached: state.bodyLimitReached)
    }

    private static func text(_ code: CURLcode) -> String { String(cString: curl_easy_strerror(code)) }
}

/// The upload being read and the answer's body being counted, behind libcurl's callbacks.
private final class TransferState {
    var upload: [UInt8] = []
    var offset = 0
    var bodyLimit = Int.max
    var bodyBytes = 0
    var bodyLimitReached = false
}

/// libcurl's read callback: copies the next part of the upload.
private let readUpload: passkey_curl_read_callback = { buffer, size, count, state in
    guard let buffer, let state else { return 0 }
    let transfer = Unmanaged<TransferState>.fromOpaque(state).takeUnretainedValue()
    let length = min(size * count, transfer.upload.count - transfer.offset)
    guard length > 0 else { return 0 }
    transfer.upload.withUnsafeBufferPointer { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + transfer.offset, byteCount: length)
    }
    transfer.offset += length
    return length
}

/// libcurl's write callback: counts the answer's body and drops it; past the limit it returns
/// less than it was given, which stops the transfer.
private let writeBody: passkey_curl_write_callback = { _, size, count, state in
    guard let state else { return 0 }
    let transfer = Unmanaged<TransferState>.fromOpaque(state).takeUnretainedValue()
    let length = size * count
    transfer.bodyBytes += length
    guard transfer.bodyBytes <= transfer.bodyLimit else {
        transfer.bodyLimitReached = true
        return 0
    }
    return length
}
