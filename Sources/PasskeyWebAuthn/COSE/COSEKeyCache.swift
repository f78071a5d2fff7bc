internal import Synchronization

/// Parsed credential keys by their stored COSE bytes, so a sign-in does not rebuild the OpenSSL
/// key (`EVP_PKEY_fromdata` with its provider look-ups) each time. Bounded: when full it starts
/// over, which costs one re-parse per key. Only successfully parsed keys are kept; a key is
/// immutable once built, and OpenSSL allows concurrent verifications with one `EVP_PKEY`.
final class COSEKeyCache: Sendable {
    private let capacity: Int
    private let keys = Mutex<[[UInt8]: COSEKey]>([:])

    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    func key(for bytes: [UInt8]) throws(COSEKeyError) -> COSEKey {
        if let cached = keys.withLock({ $0[bytes] }) { return cached }
        let parsed = try COSEKey(bytes: bytes)
        keys.withLock { keys in
            if keys.count >= capacity { keys.removeAll(keepingCapacity: true) }
            keys[bytes] = parsed
        }
        return parsed
    }
}
