internal import COpenSSL

/// HMAC-SHA256 (RFC 2104) through OpenSSL's one-shot `HMAC`, for the webhooks' signatures
/// (Standard Webhooks: `v1,` + base64 of HMAC-SHA256 over `id.timestamp.body`).
package enum HMACSHA256 {
    package static let length = 32

    /// The 32-byte authentication code of `message` under `key`.
    package static func code(for message: [UInt8], key: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        guard key.count <= Int(Int32.max) else {
            throw OpenSSLError(operation: "HMAC", diagnostics: ["key too long"])
        }
        // Empty arrays have no base address; OpenSSL reads nothing when the length is 0.
        let keyBuffer = key.isEmpty ? [0] : key
        let messageBuffer = message.isEmpty ? [0] : message
        var output = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        let result = keyBuffer.withUnsafeBytes { k in
            messageBuffer.withUnsafeBufferPointer { m in
                output.withUnsafeMutableBufferPointer { out in
                    HMAC(
                        EVP_sha256(), k.baseAddress, Int32(key.count), m.baseAddress, message.count, out.baseAddress,
                        &written)
                }
            }
        }
        guard result != nil, written == UInt32(length) else { throw OpenSSLError.capture("HMAC") }
        return output
    }
}
