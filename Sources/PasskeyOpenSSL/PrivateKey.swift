internal import COpenSSL

/// A private key: the server's token signing keys (generated, stored sealed, signing JWTs), and
/// in tests the software authenticator's and self-signed certificates' keys.
package struct PrivateKey: Sendable {
    let handle: KeyHandle

    /// The key family.
    package var kind: PublicKeyKind { handle.kind }

    /// A new EC key on `curve`.
    package static func generateEC(curve: EllipticCurve) throws(OpenSSLError) -> PrivateKey {
        try generate(algorithm: "EC") { context in EVP_PKEY_CTX_set_group_name(context, curve.groupName) == 1 }
    }

    /// A new Ed25519 key.
    package static func generateEd25519() throws(OpenSSLError) -> PrivateKey {
        try generate(algorithm: "ED25519") { _ in true }
    }

    /// A new RSA key with public exponent 65537.
    package static func generateRSA(bits: Int) throws(OpenSSLError) -> PrivateKey {
        try generate(algorithm: "RSA") { context in EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 }
    }

    private static func generate(
        algorithm: String, configure: (OpaquePointer) -> Bool
    ) throws(OpenSSLError) -> PrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw OpenSSLError.capture("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) else {
            throw OpenSSLError.capture("EVP_PKEY_keygen_init")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw OpenSSLError.capture("EVP_PKEY_generate") }
        return PrivateKey(handle: KeyHandle(owning: key))
    }

    /// Signs `message` (ECDSA signatures come out DER-encoded).
    package func sign(_ message: [UInt8], scheme: SignatureScheme) throws(OpenSSLError) -> [UInt8] {
        try handle.sign(message: message, scheme: scheme)
    }

    /// The public half, as a verifier would import it.
    package var publicKey: PublicKey { PublicKey(handle: handle) }

    /// EC: the affine coordinates (each `coordinateLength` bytes, big-endian).
    package func ecCoordinates() throws(OpenSSLError) -> (x: [UInt8], y: [UInt8]) {
        guard case .ec(let curve) = kind else { throw OpenSSLError(operation: "not an EC key", diagnostics: []) }
        var buffer = [UInt8](repeating: 0, count: 1 + 2 * curve.coordinateLength)
        var length = 0
        let ok = EVP_PKEY_get_octet_string_param(handle.pointer, PASSKEY_PARAM_PUB_KEY, &buffer, buffer.count, &length)
        guard ok == 1, length == buffer.count, buffer.first == 0x04 else {
            throw OpenSSLError.capture("EVP_PKEY_get_octet_string_param")
        }
        let n = curve.coordinateLength
        return (Array(buffer[1...n]), Array(buffer[(n + 1)...]))
    }

    /// Ed25519: the 32 raw public-key bytes.
    package func rawPublicKey() throws(OpenSSLError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 32)
        var length = buffer.count
        guard EVP_PKEY_get_raw_public_key(handle.pointer, &buffer, &length) == 1, length == 32 else {
            throw OpenSSLError.capture("EVP_PKEY_get_raw_public_key")
        }
        return buffer
    }

    /// RSA: modulus and public exponent, big-endian without leading zeros.
    package func rsaComponents() throws(OpenSSLError) -> (modulus: [UInt8], exponent: [UInt8]) {
        (try bigNumber(PASSKEY_PARAM_RSA_N), try bigNumber(PASSKEY_PARAM_RSA_E))
    }

    private func bigNumber(_ name: UnsafePointer<CChar>) throws(OpenSSLError) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(handle.pointer, name, &number) == 1, let number else {
            throw OpenSSLError.capture("EVP_PKEY_get_bn_param")
        }
        defer { BN_free(number) }
        let count = (Int(BN_num_bits(number)) + 7) / 8
        var output = [UInt8](repeating: 0, count: count)
        _ = output.withUnsafeMutableBufferPointer { BN_bn2bin(number, $0.baseAddress) }
        return output
    }
}
