internal import COpenSSL

/// A public key held by OpenSSL, imported from COSE parameters or an X.509 certificate.
package struct PublicKey: Sendable {
    let handle: KeyHandle

    init(handle: KeyHandle) { self.handle = handle }

    /// The key family and curve or size.
    package var kind: PublicKeyKind { handle.kind }

    /// An RSA key's public exponent (big-endian, no leading zeros); nil for other keys.
    package var rsaPublicExponent: [UInt8]? { handle.rsaPublicExponent }

    /// An EC public key from its affine coordinates (COSE EC2 `x`, `y`).
    /// OpenSSL refuses points that are not on the curve.
    package static func ec(curve: EllipticCurve, x: [UInt8], y: [UInt8]) throws(OpenSSLError) -> PublicKey {
        guard x.count == curve.coordinateLength, y.count == curve.coordinateLength else {
            throw OpenSSLError(operation: "EC coordinates of the wrong length", diagnostics: [])
        }
        let point: [UInt8] = [0x04] + x + y
        let builder = try ParameterBuilder()
        var group = Array(curve.groupName.utf8CString)
        let pointer = try group.withUnsafeMutableBufferPointer { (name) throws(OpenSSLError) -> OpaquePointer in
            try point.withUnsafeBufferPointer { (octets) throws(OpenSSLError) -> OpaquePointer in
                try builder.pushUTF8(PASSKEY_PARAM_GROUP_NAME, name.baseAddress)
                try builder.pushOctets(PASSKEY_PARAM_PUB_KEY, octets)
                return try builder.makeKey(algorithm: "EC")
            }
        }
        return PublicKey(handle: KeyHandle(owning: pointer))
    }

    /// An RSA public key from modulus and public exponent (COSE RSA `n`, `e`), big-endian.
    package static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(OpenSSLError) -> PublicKey {
        guard !modulus.isEmpty, !exponent.isEmpty else {
            throw OpenSSLError(operation: "empty RSA parameter", diagnostics: [])
        }
        let builder = try ParameterBuilder()
        try builder.pushBigNumber(PASSKEY_PARAM_RSA_N, modulus)
        try builder.pushBigNumber(PASSKEY_PARAM_RSA_E, exponent)
        let pointer = try builder.makeKey(algorithm: "RSA")
        return PublicKey(handle: KeyHandle(owning: pointer))
    }

    /// An Ed25519 public key from its 32 raw bytes (COSE OKP `x`).
    package static func ed25519(raw: [UInt8]) throws(OpenSSLError) -> PublicKey {
        guard raw.count == 32 else { throw OpenSSLError(operation: "Ed25519 key of the wrong length", diagnostics: []) }
        let pointer = raw.withUnsafeBufferPointer { bytes in
            EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, bytes.baseAddress, bytes.count)
        }
        guard let pointer else { throw OpenSSLError.capture("EVP_PKEY_new_raw_public_key") }
        return PublicKey(handle: KeyHandle(owning: pointer))
    }

    /// Verifies `signature` over `message`; false for a wrong signature, a malformed one,
    /// or a scheme that does not fit the key.
    package func verify(signature: [UInt8], message: [UInt8], scheme: SignatureScheme) -> Bool {
        handle.verify(signature: signature, message: message, scheme: scheme)
    }

    /// True when both are the same public key.
    package func isSameKey(as other: PublicKey) -> Bool { handle.publicKeyEquals(other.handle) }
}
