internal import COpenSSL

/// Owns one `EVP_PKEY` and frees it in `deinit`. Internal: only this module sees the pointer.
///
/// `@unchecked Sendable`: the key is never mutated after construction, and OpenSSL 3
/// allows concurrent use of one `EVP_PKEY` for verification and signing from several threads.
final class KeyHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// The key family.
    var kind: PublicKeyKind {
        if EVP_PKEY_is_a(pointer, "ED25519") == 1 { return .ed25519 }
        if EVP_PKEY_is_a(pointer, "RSA") == 1 || EVP_PKEY_is_a(pointer, "RSA-PSS") == 1 {
            return .rsa(bits: Int(EVP_PKEY_get_bits(pointer)))
        }
        if EVP_PKEY_is_a(pointer, "EC") == 1 {
            var buffer = [CChar](repeating: 0, count: 64)
            var length = 0
            let ok = EVP_PKEY_get_utf8_string_param(
                pointer, PASSKEY_PARAM_GROUP_NAME, &buffer, buffer.count, &length)
            guard ok == 1 else {
                OpenSSLError.clearQueue()
                return .other
            }
            let name = buffer.withUnsafeBufferPointer { p in p.baseAddress.map { String(cString: $0) } ?? "" }
            return EllipticCurve(groupName: name).map(PublicKeyKind.ec) ?? .other
        }
        return .other
    }

    /// The RSA public exponent, big-endian without leading zeros; nil for other keys.
    var rsaPublicExponent: [UInt8]? {
        guard EVP_PKEY_is_a(pointer, "RSA") == 1 || EVP_PKEY_is_a(pointer, "RSA-PSS") == 1 else { return nil }
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, PASSKEY_PARAM_RSA_E, &number) == 1, let number else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        let written = bytes.withUnsafeMutableBufferPointer { BN_bn2bin(number, $0.baseAddress) }
        return Array(bytes.prefix(Int(max(written, 0))))
    }

    /// True when both hold the same public key (`EVP_PKEY_eq`).
    func publicKeyEquals(_ other: KeyHandle) -> Bool {
        let result = EVP_PKEY_eq(pointer, other.pointer) == 1
        OpenSSLError.clearQueue()
        return result
    }

    /// `EVP_DigestVerify` of `signature` over `message`; false on any failure.
    func verify(signature: [UInt8], message: [UInt8], scheme: SignatureScheme) -> Bool {
        guard schemeFits(scheme), let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            OpenSSLError.clearQueue()
        }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, scheme.digest?.evp, nil, pointer) == 1 else { return false }
        guard configurePadding(keyContext, scheme: scheme) else { return false }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        return result == 1
    }

    /// `EVP_DigestSign` of `message` (the server's token signatures; the software authenticator's
    /// in tests).
    func sign(message: [UInt8], scheme: SignatureScheme) throws(OpenSSLError) -> [UInt8] {
        guard schemeFits(scheme), let context = EVP_MD_CTX_new() else {
            throw OpenSSLError(operation: "EVP_DigestSign (scheme does not fit key)", diagnostics: [])
        }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, scheme.digest?.evp, nil, pointer) == 1,
            configurePadding(keyContext, scheme: scheme)
        else { throw OpenSSLError.capture("EVP_DigestSignInit") }
        var length = 0
        let sized = message.withUnsafeBufferPointer { msg in
            EVP_DigestSign(context, nil, &length, msg.baseAddress, msg.count)
        }
        guard sized == 1 else { throw OpenSSLError.capture("EVP_DigestSign") }
        var output = [UInt8](repeating: 0, count: length)
        let signed = output.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestSign(context, out.baseAddress, &length, msg.baseAddress, msg.count)
            }
        }
        guard signed == 1 else { throw OpenSSLError.capture("EVP_DigestSign") }
        return Array(output.prefix(length))
    }

    private func schemeFits(_ scheme: SignatureScheme) -> Bool {
        switch (scheme, kind) {
        case (.ecdsa, .ec), (.ed25519, .ed25519), (.rsaPKCS1, .rsa), (.rsaPSS, .rsa): true
        default: false
        }
    }

    private func configurePadding(_ keyContext: OpaquePointer?, scheme: SignatureScheme) -> Bool {
        switch scheme {
        case .rsaPKCS1:
            return EVP_PKEY_CTX_set_rsa_padding(keyContext, PASSKEY_RSA_PKCS1_PADDING) == 1
        case .rsaPSS:
            return EVP_PKEY_CTX_set_rsa_padding(keyContext, PASSKEY_RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, PASSKEY_RSA_PSS_SALTLEN_DIGEST) == 1
        case .ecdsa, .ed25519:
            return true
        }
    }
}
