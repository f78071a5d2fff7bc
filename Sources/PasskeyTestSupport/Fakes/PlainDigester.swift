internal import PasskeyApplication

/// A `SecretDigester` whose digest is the input itself, so a test can compare what a use case
/// stores with what it presents (and read a stored recovery code back).
package struct PlainDigester: SecretDigester {
    package init() {}

    package func sha256(_ bytes: [UInt8]) -> [UInt8] { bytes }
}

extension PlainDigester {
    /// Plain equality: a fake needs no constant time.
    package func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }
}
