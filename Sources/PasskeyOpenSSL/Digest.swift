internal import COpenSSL

/// Message digests through OpenSSL's EVP interface.
package enum Digest {
    /// The hash functions WebAuthn needs.
    package enum Algorithm: Sendable {
        case sha1, sha256, sha384, sha512

        /// The implementation, fetched once: passing `EVP_sha256()` and friends makes OpenSSL 3
        /// fetch implicitly on every call, which showed in the sign-in profile.
        var evp: OpaquePointer? {
            switch self {
            case .sha1: FetchedDigests.shared.sha1 ?? EVP_sha1()
            case .sha256: FetchedDigests.shared.sha256 ?? EVP_sha256()
            case .sha384: FetchedDigests.shared.sha384 ?? EVP_sha384()
            case .sha512: FetchedDigests.shared.sha512 ?? EVP_sha512()
            }
        }

        package var outputLength: Int {
            switch self {
            case .sha1: 20
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }
    }

    /// The digest of `bytes` (one-shot `EVP_Digest`).
    package static func hash<Bytes: ContiguousBytes>(_ algorithm: Algorithm, _ bytes: Bytes) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: algorithm.outputLength)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, algorithm.evp, nil)
            }
        }
        // EVP_Digest only fails on allocation failure or a missing provider: not recoverable.
        precondition(ok == 1 && Int(length) == algorithm.outputLength, "EVP_Digest failed")
        return output
    }

    package static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] { hash(.sha256, bytes) }
}

/// Something whose bytes can be read contiguously (arrays, slices, strings' UTF-8 views copied to arrays).
package protocol ContiguousBytes {
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: ContiguousBytes where Element == UInt8 {}
extension ArraySlice: ContiguousBytes where Element == UInt8 {}

/// Digest implementations fetched once from the default provider and kept for the process.
/// `@unchecked Sendable`: the pointers are set in `init` and never changed or freed; an `EVP_MD`
/// is immutable after fetching and OpenSSL allows sharing it between threads.
private final class FetchedDigests: @unchecked Sendable {
    static let shared = FetchedDigests()

    let sha1: OpaquePointer?
    let sha256: OpaquePointer?
    let sha384: OpaquePointer?
    let sha512: OpaquePointer?

    private init() {
        sha1 = EVP_MD_fetch(nil, "SHA1", nil)
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        sha384 = EVP_MD_fetch(nil, "SHA384", nil)
        sha512 = EVP_MD_fetch(nil, "SHA512", nil)
    }
}
