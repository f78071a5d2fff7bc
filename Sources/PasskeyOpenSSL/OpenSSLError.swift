internal import COpenSSL

/// A failed OpenSSL call: which operation failed, plus the library's own error queue.
/// `description` is deliberately generic so that details never reach a client.
package struct OpenSSLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation that failed (e.g. `EVP_PKEY_fromdata`).
    package let operation: String
    /// The OpenSSL error queue at the time of failure, oldest first (for logs only).
    package let diagnostics: [String]

    package init(operation: String, diagnostics: [String]) {
        self.operation = operation
        self.diagnostics = diagnostics
    }

    package var description: String { "cryptographic operation failed" }

    /// Drains the thread's OpenSSL error queue into an error value.
    static func capture(_ operation: String) -> OpenSSLError {
        var lines: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = buffer.withUnsafeBufferPointer { pointer in
                pointer.baseAddress.map { String(cString: $0) } ?? ""
            }
            lines.append(text)
        }
        return OpenSSLError(operation: operation, diagnostics: lines)
    }

    /// Forgets whatever is queued (after an expected failure such as a bad signature).
    static func clearQueue() { ERR_clear_error() }
}
