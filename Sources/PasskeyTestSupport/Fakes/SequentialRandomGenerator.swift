internal import PasskeyApplication
internal import Synchronization

/// A `RandomGenerator` tests can predict: call *n* answers zeros followed by *n* as a big-endian
/// 64-bit number (only its low bytes when fewer than 8 are asked for), so every challenge, ID and
/// code it makes differs from the others and from those of another run only by the call order.
package final class SequentialRandomGenerator: RandomGenerator {
    private let calls = Mutex<UInt64>(0)

    package init() {}

    /// How many times `bytes(count:)` was called.
    package var callCount: Int { calls.withLock { Int($0) } }

    package func bytes(count: Int) -> [UInt8] {
        let call = calls.withLock { (calls) -> UInt64 in
            calls += 1
            return calls
        }
        let counter = withUnsafeBytes(of: call.bigEndian) { Array($0) }
        guard count >= counter.count else { return Array(counter.suffix(count)) }
        return Array(repeating: 0, count: count - counter.count) + counter
    }
}
