internal import COpenSSL

/// AES-256-GCM through OpenSSL's EVP AEAD interface: what keeps the server's secrets at rest
/// (the token signing keys, the webhook secrets) under `DATA_ENCRYPTION_KEY`.
///
/// A sealed box is `nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)`, the nonce fresh from the
/// CSPRNG for every seal. `associatedData` binds a box to what it belongs to (a key's ID): a box
/// moved to another row does not open.
package enum AESGCM {
    package static let keyLength = 32
    package static let nonceLength = 12
    package static let tagLength = 16

    /// Encrypts `plaintext` under `key` (32 bytes).
    package static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = [])
        throws(OpenSSLError) -> [UInt8]
    {
        try seal(plaintext, key: key, nonce: SecureRandom.bytes(count: nonceLength), associatedData: associatedData)
    }

    /// `seal` with a given nonce (for the known-answer tests only: a nonce must never repeat).
    package static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8])
        throws(OpenSSLError) -> [UInt8]
    {
        guard key.count == keyLength, nonce.count == nonceLength else {
            throw OpenSSLError(operation: "AES-256-GCM: a 32-byte key and a 12-byte nonce", diagnostics: [])
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLError.capture("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1 else {
            throw OpenSSLError.capture("EVP_EncryptInit_ex")
        }
        var length: Int32 = 0
        if !associatedData.isEmpty {
            guard EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                throw OpenSSLError.capture("EVP_EncryptUpdate (associated data)")
            }
        }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        if !plaintext.isEmpty {
            let ok = ciphertext.withUnsafeMutableBufferPointer { out in
                EVP_EncryptUpdate(context, out.baseAddress, &written, plaintext, Int32(plaintext.count))
            }
            guard ok == 1 else { throw OpenSSLError.capture("EVP_EncryptUpdate") }
        }
        var final: Int32 = 0
        let finished = ciphertext.withUnsafeMutableBufferPointer { out in
            EVP_EncryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &final)
        }
        guard finished == 1 else { throw OpenSSLError.capture("EVP_EncryptFinal_ex") }
        var tag = [UInt8](repeating: 0, count: tagLength)
        guard EVP_CIPHER_CTX_ctrl(context, PASSKEY_EVP_CTRL_GCM_GET_TAG, Int32(tagLength), &tag) == 1 else {
            throw OpenSSLError.capture("EVP_CTRL_GCM_GET_TAG")
        }
        return nonce + ciphertext.prefix(Int(written + final)) + tag
    }

    /// Decrypts a box made by `seal`; nil when it does not open (another key, other associated
    /// data, or any byte changed): GCM authenticates before anything is returned.
    package static func open(_ box: [UInt8], key: [UInt8], associatedData: [UInt8] = []) -> [UInt8]? {
        guard key.count == keyLength, box.count >= nonceLength + tagLength,
            let context = EVP_CIPHER_CTX_new()
        else { return nil }
        defer {
            EVP_CIPHER_CTX_free(context)
            OpenSSLError.clearQueue()
        }
        let nonce = Array(box.prefix(nonceLength))
        let ciphertext = Array(box[nonceLength..<(box.count - tagLength)])
        var tag = Array(box.suffix(tagLength))
        guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1 else { return nil }
        var length: Int32 = 0
        if !associatedData.isEmpty {
            guard EVP_DecryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                return nil
            }
        }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written: Int32 = 0
        if !ciphertext.isEmpty {
            let ok = plaintext.withUnsafeMutableBufferPointer { out in
                EVP_DecryptUpdate(context, out.baseAddress, &written, ciphertext, Int32(ciphertext.count))
            }
            guard ok == 1 else { return nil }
        }
        guard EVP_CIPHER_CTX_ctrl(context, PASSKEY_EVP_CTRL_GCM_SET_TAG, Int32(tagLength), &tag) == 1 else {
            return nil
        }
        var final: Int32 = 0
        let verified = plaintext.withUnsafeMutableBufferPointer { out in
            EVP_DecryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &final)
        }
        guard verified == 1 else { return nil }
        return Array(plaintext.prefix(Int(written + final)))
    }
}
