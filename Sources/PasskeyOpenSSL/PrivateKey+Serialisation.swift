internal import COpenSSL

extension PrivateKey {
    /// The key as DER (`i2d_PrivateKey`: SEC 1 for an EC key), what the server encrypts and
    /// stores. It is the secret itself: never log it, and keep it only sealed (`AESGCM`).
    package func derEncoded() throws(OpenSSLError) -> [UInt8] {
        let length = i2d_PrivateKey(handle.pointer, nil)
        guard length > 0 else { throw OpenSSLError.capture("i2d_PrivateKey") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PrivateKey(handle.pointer, &cursor)
        }
        guard written == length else { throw OpenSSLError.capture("i2d_PrivateKey") }
        return bytes
    }

    /// A key from `derEncoded()`'s bytes (`d2i_AutoPrivateKey`).
    package init(der: [UInt8]) throws(OpenSSLError) {
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let key else { throw OpenSSLError.capture("d2i_AutoPrivateKey") }
        self.init(handle: KeyHandle(owning: key))
    }
}

/// ECDSA signatures between OpenSSL's DER (`ECDSA-Sig-Value`) and the fixed-length `r ‖ s` that
/// JWS uses (RFC 7518 §3.4), through OpenSSL's own `ECDSA_SIG`.
package enum ECDSASignature {
    /// `r ‖ s`, each `coordinateLength` bytes, from DER; nil when it is not one.
    package static func raw(fromDER der: [UInt8], coordinateLength: Int) -> [UInt8]? {
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else {
            OpenSSLError.clearQueue()
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        guard let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature) else { return nil }
        var output = [UInt8](repeating: 0, count: 2 * coordinateLength)
        let ok = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, Int32(coordinateLength)) == coordinateLength
                && BN_bn2binpad(s, base + coordinateLength, Int32(coordinateLength)) == coordinateLength
        }
        return ok ? output : nil
    }

    /// DER from `r ‖ s` (an even number of bytes); nil when it cannot be one.
    package static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard !raw.isEmpty, raw.count % 2 == 0, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let half = raw.count / 2
        guard let r = BN_bin2bn(raw, Int32(half), nil) else { return nil }
        guard let s = raw.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress! + half, Int32(half), nil) }) else {
            BN_free(r)
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? bytes : nil
    }
}
