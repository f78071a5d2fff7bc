internal import COpenSSL

/// Comparisons of secrets that take the same time wherever the first difference is.
package enum ConstantTime {
    /// True when both byte strings are equal; the length itself is not secret.
    package static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, a.count) == 0 }
        }
    }
}
