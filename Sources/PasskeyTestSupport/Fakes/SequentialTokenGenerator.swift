package import PasskeyApplication
internal import Synchronization

/// A `SessionTokenGenerator` tests can predict: tokens `token-1`, `token-2`, … whose digest is
/// their UTF-8 bytes. A presented token has a digest only when it could be one of these (starts
/// with `token-`), as the real generator refuses what cannot be one of its tokens.
package final class SequentialTokenGenerator: SessionTokenGenerator {
    private let issued = Mutex(0)

    package init() {}

    /// The digest stored for `token`.
    package static func digest(of token: String) -> [UInt8] { Array(token.utf8) }

    package func makeToken() -> SessionToken {
        let number = issued.withLock { (issued) -> Int in
            issued += 1
            return issued
        }
        let token = "token-\(number)"
        return SessionToken(token: token, digest: Self.digest(of: token))
    }

    package func digest(ofPresentedToken token: String) -> [UInt8]? {
        token.hasPrefix("token-") ? Self.digest(of: token) : nil
    }
}
