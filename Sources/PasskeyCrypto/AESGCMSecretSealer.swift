package import PasskeyApplication
internal import PasskeyOpenSSL

/// `SecretSealer` with AES-256-GCM under `DATA_ENCRYPTION_KEY` (32 bytes): a fresh nonce per
/// seal, the context (a key's ID) as associated data.
package struct AESGCMSecretSealer: SecretSealer {
    private let key: [UInt8]

    /// Nil unless `key` is 32 bytes.
    package init?(key: [UInt8]) {
        guard key.count == AESGCM.keyLength else { return nil }
        self.key = key
    }

    package func seal(_ secret: [UInt8], context: String) throws(SecretSealingError) -> [UInt8] {
        do {
            return try AESGCM.seal(secret, key: key, associatedData: Array(context.utf8))
        } catch {
            throw SecretSealingError(cause: "\(error.operation)")
        }
    }

    package func open(_ box: [UInt8], context: String) -> [UInt8]? {
        AESGCM.open(box, key: key, associatedData: Array(context.utf8))
    }
}
