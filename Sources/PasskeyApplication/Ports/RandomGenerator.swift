/// Cryptographically secure random bytes (challenges, tokens, IDs).
package protocol RandomGenerator: Sendable {
    func bytes(count: Int) -> [UInt8]
}
